"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { StateBadge } from "@/components/orders/state-badge";
import { RefreshViewProvider } from "@/components/query-provider";
import { useHeldWhileDialogOpen, useAnyDialogOpen } from "@/components/ui/dialog";
import { Time } from "@/components/ui/time";
import type { Assignee } from "@/lib/cases/queries/assignees";
import type { CaseFilter } from "@/lib/cases/filters";
import type { QueuesSnapshot, QueueState } from "@/lib/read/queues";
// From the pure module, not the query (which holds the database pool): this runs in the browser.
import { isStuckState, STUCK_STATES } from "@/lib/orders/stuck";
import { QueueCases } from "./queue-cases";
import { QueueStuckTable } from "./queue-tables";

/** The stuck queue's tabs: one per state an order can be stuck in, as the overview counts them. */
const STUCK_TABS = STUCK_STATES;
type StuckTab = QueueState;
const isStuckTab = isStuckState;

const POLL_MS = 5_000;

async function fetchQueues(cases: CaseFilter): Promise<QueuesSnapshot> {
  const response = await fetch(`/api/console/queues?cases=${cases}`, { cache: "no-store", headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`queues answered ${response.status}`);
  return (await response.json()) as QueuesSnapshot;
}

interface QueueLiveProps {
  readonly initial: QueuesSnapshot;
  readonly requestedTab: string | undefined;
  /** Staff who work cases, for the assign form. */
  readonly assignees: readonly Assignee[];
  /** The viewer ("staff:<email>"): "mine", and "you" as an owner. */
  readonly me: string;
}

/**
 * The two queues (stuck orders, cases), refreshed every few seconds from /api/console/queues: an order that gets stuck
 * or a case that is filed, taken or resolved while someone is looking shows without a reload. The
 * first render uses the snapshot the server rendered with (for the case filter in the URL).
 */
export function QueueLive({ initial, requestedTab, assignees, me }: QueueLiveProps) {
  const t = useTranslations("queues");
  const c = useTranslations("cases");
  const client = useQueryClient();
  // Without a choice in the URL, open the first state that has something waiting.
  const initialTab = isStuckTab(requestedTab) ? requestedTab : (STUCK_TABS.find((s) => initial.stuck[s].total > 0) ?? STUCK_TABS[0]);
  const [cases, setCases] = useState<CaseFilter>(initial.cases.filter);
  // Never under an open dialog: a case's dialog is read against the row it was opened from, so no
  // poll while one is open, and the rows stay as they were until it closes (a refetch is held too).
  const reading = useAnyDialogOpen();
  const { data, isError } = useQuery({
    queryKey: ["queues", cases],
    queryFn: () => fetchQueues(cases),
    ...(cases === initial.cases.filter ? { initialData: initial } : {}),
    placeholderData: (previous) => previous,
    refetchInterval: reading ? false : POLL_MS,
  });
  const snapshot = useHeldWhileDialogOpen(data ?? initial);
  const chooseCases = (filter: CaseFilter) => {
    setCases(filter);
    const url = new URL(window.location.href);
    url.searchParams.set("cases", filter);
    window.history.replaceState(null, "", url);
  };
  const refresh = () => client.invalidateQueries({ queryKey: ["queues"] });
  const stuckTotal = STUCK_TABS.reduce((sum, state) => sum + snapshot.stuck[state].total, 0);
  const stuckMore = STUCK_TABS.some((state) => snapshot.stuck[state].more);

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
        </div>
        <p className="ml-auto inline-flex items-center gap-2 text-xs text-slate-500" aria-live="polite" data-testid="queues-live">
          {isError ? (
            <>
              <span className="h-2 w-2 rounded-full bg-amber-500" aria-hidden />
              <span>
                {t("stale")} <Time value={snapshot.asOf} />
              </span>
            </>
          ) : reading ? (
            <>
              <span className="h-2 w-2 rounded-full bg-slate-400" aria-hidden />
              {t("paused")}
            </>
          ) : (
            <>
              <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden />
              {t("live")}
            </>
          )}
        </p>
      </div>

      <nav aria-label={t("jump")} className="grid gap-3 sm:grid-cols-2">
        <JumpCard href="#stuck" label={t("stuck.title")} count={stuckTotal} more={stuckMore} testId="queue-jump-stuck-count" />
        <JumpCard href="#cases" label={c("title")} count={snapshot.cases.counts.all.total} more={snapshot.cases.counts.all.more} />
      </nav>

      <section id="stuck" aria-labelledby="stuck-heading" className="scroll-mt-4 space-y-3">
        <QueueHeading id="stuck-heading" title={t("stuck.title")} description={t("stuck.description")} />
        <StuckTabs snapshot={snapshot} initialTab={initialTab} />
      </section>

      <section id="cases" aria-labelledby="cases-heading" className="scroll-mt-4 space-y-3">
        <QueueHeading id="cases-heading" title={c("title")} description={c("description")} />
        <RefreshViewProvider refresh={refresh}>
          <QueueCases queue={snapshot.cases} onFilter={chooseCases} assignees={assignees} me={me} />
        </RefreshViewProvider>
      </section>
    </div>
  );
}

/** A queue's size: exact, or "1,000+" past the count limit. */
function Count({ total, more }: { total: number; more: boolean }) {
  const t = useTranslations("queues");
  return <>{more ? t("countMore", { count: total }) : total.toLocaleString()}</>;
}

function JumpCard({ href, label, count, more, testId }: { href: string; label: string; count: number; more: boolean; testId?: string }) {
  return (
    <a
      href={href}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
    >
      <span className="block text-sm text-slate-600">{label}</span>
      <span className={`block text-2xl font-semibold tabular-nums ${count > 0 ? "text-slate-900" : "text-slate-400"}`} data-testid={testId}>
        <Count total={count} more={more} />
      </span>
    </a>
  );
}

function QueueHeading({ id, title, description }: { id: string; title: string; description: string }) {
  return (
    <div>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="text-sm text-slate-600">{description}</p>
    </div>
  );
}

function Empty({ text }: { text: string }) {
  return <p className="rounded border border-dashed border-slate-300 p-6 text-sm text-slate-600">{text}</p>;
}

function Showing({ shown, list }: { shown: number; list: { total: number; more: boolean } }) {
  const t = useTranslations("queues");
  if (shown >= list.total && !list.more) return null;
  return <p className="text-xs text-slate-500">{t(list.more ? "showingMore" : "showing", { shown, total: list.total })}</p>;
}

/** WAI-ARIA tabs: arrow keys, Home and End move between states; the choice is kept in the URL. */
function StuckTabs({ snapshot, initialTab }: { snapshot: QueuesSnapshot; initialTab: StuckTab }) {
  const t = useTranslations("queues");
  const states = useTranslations("state");
  const [tab, setTab] = useState<StuckTab>(initialTab);
  const base = useId();
  const refs = useRef<Partial<Record<StuckTab, HTMLButtonElement | null>>>({});

  const select = (next: StuckTab, focus: boolean) => {
    setTab(next);
    if (focus) refs.current[next]?.focus();
    const url = new URL(window.location.href);
    url.searchParams.set("tab", next);
    window.history.replaceState(null, "", url);
  };
  const onKeyDown = (from: StuckTab, event: KeyboardEvent<HTMLButtonElement>) => {
    const index = STUCK_TABS.indexOf(from);
    const last = STUCK_TABS.length - 1;
    const target =
      event.key === "ArrowRight" ? (index === last ? 0 : index + 1)
      : event.key === "ArrowLeft" ? (index === 0 ? last : index - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? last
      : null;
    if (target === null) return;
    event.preventDefault();
    select(STUCK_TABS[target]!, true);
  };

  const list = snapshot.stuck[tab];
  return (
    <div className="space-y-3">
      <div role="tablist" aria-label={t("stuck.tabs")} className="flex flex-wrap gap-2">
        {STUCK_TABS.map((state) => {
          const selected = state === tab;
          return (
            <button
              key={state}
              ref={(el) => {
                refs.current[state] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${state}`}
              aria-selected={selected}
              aria-controls={`${base}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(state, false)}
              onKeyDown={(event) => onKeyDown(state, event)}
              data-testid={`queue-tab-${state}`}
              className={`inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${
                selected ? "border-slate-900 bg-white shadow-sm" : "border-slate-200 bg-slate-50 text-slate-600 hover:bg-white"
              }`}
            >
              <StateBadge state={state} />
              <span className="tabular-nums font-medium">
                <Count total={snapshot.stuck[state].total} more={snapshot.stuck[state].more} />
              </span>
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${tab}`} tabIndex={0} className="space-y-2 focus-visible:outline-2 focus-visible:outline-slate-900">
        {/* Refunding too long is a channel that never answered: it says so where that list is. */}
        {tab === "refunding" ? <p className="text-sm text-slate-600">{t("stuck.refunding")}</p> : null}
        {list.items.length === 0 ? (
          <Empty text={t("stuck.empty", { state: states(tab) })} />
        ) : (
          <>
            <QueueStuckTable items={list.items} testId={`queue-stuck-${tab}`} />
            <Showing shown={list.items.length} list={list} />
          </>
        )}
      </div>
    </div>
  );
}
