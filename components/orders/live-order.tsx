"use client";

import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useTransition, type ReactNode } from "react";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useAnyDialogOpen } from "@/components/ui/dialog";
import { Time } from "@/components/ui/time";
import { isRole } from "@/lib/auth/permissions";
import type { OrderLive } from "@/lib/presence/order-presence";
import { POLL_SECONDS } from "@/lib/presence/timing";
import { isOrderState } from "@/lib/orders/machine";
import { postModel } from "@/lib/read/wire";
import { EventName } from "./names";

const POLL_MS = POLL_SECONDS * 1000;

interface LiveOrderState {
  /** The latest answer of the order's poll: its version, what changed, who else is here. */
  readonly live: OrderLive | undefined;
  /** The version of the read model the page shows. */
  readonly pageVersion: number;
  /** A form stands on `basis`: the poll names the changes after it. Returns the release. */
  readonly hold: (basis: number) => () => void;
  /** The poll has seen a version newer than the page's. */
  readonly moved: boolean;
  /** A dialog is open: the page holds still. */
  readonly reading: boolean;
}

const LiveOrderContext = createContext<LiveOrderState | null>(null);

function presenceUrl(tenant: string, orderNo: string): string {
  return `/api/console/orders/${encodeURIComponent(tenant)}/${encodeURIComponent(orderNo)}/presence`;
}

/**
 * Keeps an open order page live with one request every few seconds (POST …/presence, answered by
 * one statement: lib/presence/order-presence.ts): it says this tab is still on the order, and
 * answers the order's version, the changes since the oldest version the page or one of its forms
 * stands on, and who else has the order open. When the version moves, the page reads its read
 * model again — unless a dialog is open: then the page holds still (new data would change what the
 * person is deciding on), the poll goes on, and the form says what changed (OrderMovedNotice). Once
 * the last dialog closes, a change seen meanwhile is shown at once.
 *
 * A hidden tab stops polling and says it is leaving (a keepalive POST that outlives the page), as
 * does a closed or left page; one that cannot say so (a crash, a dead node) expires on the server.
 */
export function LiveOrderProvider({ tenant, orderNo, version, children }: { tenant: string; orderNo: string; version: number; children: ReactNode }) {
  const refresh = useRefreshView();
  const reading = useAnyDialogOpen();
  const [tab] = useState(() => crypto.randomUUID());
  const [holds, setHolds] = useState<ReadonlyMap<symbol, number>>(() => new Map());
  const since = Math.min(version, ...holds.values());
  // The poll's body reads the latest `since` without making each value a query of its own.
  const sinceRef = useRef(since);
  useEffect(() => {
    sinceRef.current = since;
  }, [since]);
  // Each request of this tab is numbered, so a poll still on its way when the tab leaves cannot
  // bring it back on the server after the leave (lib/presence/order-presence.ts).
  const seq = useRef(0);
  const url = presenceUrl(tenant, orderNo);
  const { data } = useQuery({
    queryKey: ["order-live", tenant, orderNo, tab],
    queryFn: ({ signal }) => postModel<OrderLive>(url, { tab, since: sinceRef.current, seq: ++seq.current }, signal),
    refetchInterval: POLL_MS,
    // Hidden: no polling (TanStack Query's default), and the row goes (below). Shown again: at once.
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: "always",
    staleTime: POLL_MS,
    gcTime: 0,
  });

  useEffect(() => {
    const leave = () => {
      // keepalive: the request outlives the page that is going away; a failure is left to the expiry.
      void fetch(url, { method: "POST", keepalive: true, headers: { "content-type": "application/json" }, body: JSON.stringify({ tab, since: 0, seq: ++seq.current, leaving: true }) }).catch(() => {});
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") leave();
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", leave);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", leave);
      // Left for another page of the console (a client-side navigation): gone from this order too.
      leave();
    };
  }, [url, tab]);

  // Newer only: right after a change of its own the page may already be ahead of the last poll.
  const moved = data !== undefined && data.version > version;
  useEffect(() => {
    if (moved && !reading) void refresh();
  }, [moved, data?.version, reading, refresh]);

  const hold = useCallback((basis: number) => {
    const key = Symbol("form");
    setHolds((current) => new Map(current).set(key, basis));
    return () =>
      setHolds((current) => {
        const next = new Map(current);
        next.delete(key);
        return next;
      });
  }, []);
  const state = useMemo(() => ({ live: data, pageVersion: version, hold, moved, reading }), [data, version, hold, moved, reading]);
  return <LiveOrderContext.Provider value={state}>{children}</LiveOrderContext.Provider>;
}

/** The header's line: live or holding still, and who else has the order open now. */
export function LiveOrder() {
  const t = useTranslations("orderPage");
  const context = useContext(LiveOrderContext);
  const reading = context?.reading ?? false;
  const moved = context?.moved ?? false;
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-x-3 gap-y-1">
      <OthersHere present={context?.live?.present ?? []} />
      <span className="inline-flex items-center gap-1 text-xs text-slate-500" aria-live="polite" data-testid="order-live">
        <span className={`h-2 w-2 rounded-full ${reading ? "bg-amber-400" : "animate-pulse bg-emerald-500"}`} aria-hidden />
        {reading ? t("paused") : moved ? t("updated") : t("live")}
      </span>
    </span>
  );
}

function OthersHere({ present }: { present: OrderLive["present"] }) {
  const t = useTranslations("orderPage.presence");
  const roles = useTranslations("admin.roleName");
  const locale = useLocale();
  return (
    <span className="text-xs text-slate-700" aria-live="polite" data-testid="order-presence">
      {present.length === 0 ? (
        <span className="text-slate-500">{t("alone")}</span>
      ) : (
        <>
          <span className="font-medium">{t("others", { count: present.length })}</span>{" "}
          {present.map((p, i) => (
            <span key={`${p.name}-${p.since}`} data-testid="present-colleague">
              {i > 0 ? t("separator") : null}
              {t.rich("colleague", {
                name: p.name,
                role: isRole(p.role) ? roles(p.role) : p.role,
                // The time alone, no running age: this line is a live region, read out when someone comes or goes.
                since: () => <time dateTime={p.since}>{new Date(p.since).toLocaleTimeString(locale, { timeStyle: "short" })}</time>,
              })}
            </span>
          ))}
        </>
      )}
    </span>
  );
}

/**
 * The version a form on the order page stands on: the page's version when the form opened, or
 * `fixed` (the version the form submits against; null: the form stands on nothing yet, e.g. an empty
 * note box), moved on only when the person reloads the facts. `reload` reads the page's model again;
 * the form stays mounted, so what was typed stays. `latest`: the newest version the page knows of.
 * Outside an order page (no LiveOrderProvider) there is nothing to watch: `basis` is null.
 */
export function useFormBasis(fixed?: number | null): {
  readonly basis: number | null;
  readonly latest: number | null;
  readonly reload: () => void;
  readonly reloading: boolean;
} {
  const context = useContext(LiveOrderContext);
  const refresh = useRefreshView();
  const [own, setOwn] = useState<number | null>(() => context?.pageVersion ?? null);
  const [reloading, start] = useTransition();
  const basis = context === null ? null : fixed === undefined ? own : fixed;
  const latest = context === null ? null : Math.max(context.live?.version ?? 0, context.pageVersion);
  const hold = context?.hold;
  useEffect(() => (hold && basis !== null ? hold(basis) : undefined), [hold, basis]);
  const reload = useCallback(() => {
    // What the person has in front of them once the model is read again is at least what the poll saw.
    if (latest !== null) setOwn(latest);
    start(refresh);
  }, [latest, refresh]);
  return { basis, latest, reload, reloading };
}

/**
 * Said in a form before it is submitted, once the order moved on from the version the form stands
 * on: who changed it and what (the latest changes, newest first), and a button that reads the facts
 * again while the form keeps what was typed. The server's stale refusal stays the last word.
 */
export function OrderMovedNotice({ basis, onReload, reloading }: { basis: number | null; onReload: () => void; reloading: boolean }) {
  const t = useTranslations("orderPage.moved");
  const states = useTranslations("state");
  const live = useContext(LiveOrderContext)?.live;
  if (basis === null || live === undefined || live.version <= basis) return null;
  const changes = live.changes.filter((c) => c.version > basis);
  const unnamed = live.version - basis - changes.length;
  return (
    <div data-testid="order-moved">
      <Alert tone="warning">
        <p className="font-medium">{t("title", { from: basis, to: live.version })}</p>
        <ul className="mt-1 list-disc pl-5">
          {changes.map((c) => (
            <li key={c.version} data-testid="order-moved-change">
              {t.rich("change", {
                who: () => (c.name ? <span className="font-medium">{c.name}</span> : <span className="font-mono text-xs">{c.actor}</span>),
                what: () => <EventName event={c.event} />,
                from: isOrderState(c.from) ? states(c.from) : c.from,
                to: isOrderState(c.to) ? states(c.to) : c.to,
                at: () => <Time value={c.at} />,
              })}
            </li>
          ))}
          {unnamed > 0 ? <li>{t("earlier", { count: unnamed })}</li> : null}
        </ul>
        <p className="mt-1">{t("hint")}</p>
        <div className="mt-2">
          <Button variant="secondary" onClick={onReload} disabled={reloading} data-testid="reload-facts">
            {reloading ? t("reloading") : t("reload")}
          </Button>
        </div>
      </Alert>
    </div>
  );
}
