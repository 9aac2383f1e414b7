"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { CaseReasonsProvider } from "@/components/cases/case-reasons";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { StateBadge } from "@/components/orders/state-badge";
import { RefreshViewProvider } from "@/components/query-provider";
import { useHeldWhileDialogOpen, useAnyDialogOpen } from "@/components/ui/dialog";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Time } from "@/components/ui/time";
import { useScrollToHash } from "@/components/ui/scroll-to-hash";
import { isCaseFilter, type CaseFilter } from "@/lib/cases/filters";
import type { QueuesPageModel, QueuesSnapshot, QueueState } from "@/lib/read/queues";
import { readModel } from "@/lib/read/wire";
// From the pure module, not the query (which holds the database pool): this runs in the browser.
import { isStuckState, STUCK_STATES } from "@/lib/orders/stuck";
import { QueueCases } from "./queue-cases";
import { QueueStuckTable } from "./queue-tables";

/** The stuck queue's tabs: one per state an order can be stuck in, as the overview counts them. */
const STUCK_TABS = STUCK_STATES;
type StuckTab = QueueState;
const isStuckTab = isStuckState;

const POLL_MS = 5_000;

/**
 * The queues page: its read model (lib/read/queues.ts: both queues for the case filter in the URL,
 * who looks, what the case forms offer) from /api/console/queues, read again every few seconds — an
 * order that gets stuck or a case that is filed, taken or resolved while someone is looking shows
 * without a reload. Never under an open dialog: a case's dialog is read against the row it was
 * opened from, so no poll while one is open, and the rows stay as they were until it closes (a
 * refetch is held too).
 */
export function QueuesView() {
  const params = useSearchParams();
  const [cases, setCases] = useState<CaseFilter>(() => {
    const asked = params.get("cases");
    return isCaseFilter(asked) ? asked : "all";
  });
  const reading = useAnyDialogOpen();
  const { data, error, isError } = useQuery({
    queryKey: ["queues", cases],
    queryFn: ({ signal }) => readModel<QueuesPageModel>(`/api/console/queues?cases=${cases}`, signal),
    placeholderData: (previous) => previous,
    refetchInterval: reading ? false : POLL_MS,
    retry: retryRead,
  });
  const model = useHeldWhileDialogOpen(data);
  // The overview's cards link to #cases.
  useScrollToHash(model !== undefined);
  if (!model) {
    if (error) showReadRefusal(error, `/queues${location.search}`, "orders:view");
    return <QueuesLoading />;
  }
  const chooseCases = (filter: CaseFilter) => {
    setCases(filter);
    const url = new URL(window.location.href);
    url.searchParams.set("cases", filter);
    window.history.replaceState(null, "", url);
  };
  return (
    // Canned reasons for the case dialogs.
    <CaseReasonsProvider reasons={model.reasons}>
      <QueueLive model={model} stale={isError} requestedTab={params.get("tab") ?? undefined} onCases={chooseCases} />
    </CaseReasonsProvider>
  );
}

interface QueueLiveProps {
  readonly model: QueuesPageModel;
  /** The last poll failed: what is shown is as of model.asOf. */
  readonly stale: boolean;
  readonly requestedTab: string | undefined;
  readonly onCases: (filter: CaseFilter) => void;
}

function QueueLive({ model: snapshot, stale, requestedTab, onCases }: QueueLiveProps) {
  const t = useTranslations("queues");
  const c = useTranslations("cases");
  const client = useQueryClient();
  const reading = useAnyDialogOpen();
  // Without a choice in the URL, open the first state that has something waiting.
  const initialTab = isStuckTab(requestedTab) ? requestedTab : (STUCK_TABS.find((s) => snapshot.stuck[s].total > 0) ?? STUCK_TABS[0]);
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
          {stale ? (
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
          <QueueCases queue={snapshot.cases} onFilter={onCases} assignees={snapshot.assignees} me={snapshot.me} />
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

/** Until the queues' first read: the page's title, and the two queues' places. */
export function QueuesLoading() {
  const t = useTranslations("queues");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Placeholder className="h-20" />
        <Placeholder className="h-20" />
      </div>
      <Placeholder className="h-64" />
    </PageLoading>
  );
}
