"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { countByKind, TIMELINE_KINDS, type TimelineEntry, type TimelineKind } from "@/lib/orders/timeline";
import { NoteComposer, type Correcting } from "./note-composer";
import { TimelineItem } from "./timeline-entry";

/**
 * The order's whole history in one list, newest first (lib/orders/timeline.ts merges it), with a
 * filter by kind — the page already holds every entry, so filtering is the browser's — and the
 * composer for internal notes above it. Stripe's and Shopify's order timelines are the model.
 */
export function Timeline({
  entries,
  currency,
  note,
}: {
  entries: readonly TimelineEntry[];
  currency: string;
  /** Where notes go; without it the timeline is read-only. */
  note?: { readonly tenant: string; readonly orderNo: string } | undefined;
}) {
  const t = useTranslations("orderPage.timeline");
  const [shown, setShown] = useState<TimelineKind | "all">("all");
  const [correcting, setCorrecting] = useState<Correcting | null>(null);
  const counts = countByKind(entries);
  const visible = shown === "all" ? entries : entries.filter((e) => e.kind === shown);
  const chip = (active: boolean) =>
    `rounded-full border px-2.5 py-0.5 text-xs ${active ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`;

  return (
    <div className="space-y-4">
      {note ? (
        <NoteComposer
          key={correcting?.id ?? "new"}
          tenant={note.tenant}
          orderNo={note.orderNo}
          correcting={correcting}
          onDone={() => setCorrecting(null)}
        />
      ) : null}
      <div role="group" aria-label={t("filter")} className="flex flex-wrap gap-1.5">
        <button type="button" className={chip(shown === "all")} aria-pressed={shown === "all"} onClick={() => setShown("all")}>
          {t("all", { count: entries.length })}
        </button>
        {TIMELINE_KINDS.filter((k) => counts[k] > 0).map((kind) => (
          <button key={kind} type="button" className={chip(shown === kind)} aria-pressed={shown === kind} onClick={() => setShown(kind)} data-kind={kind}>
            {t(`kinds.${kind}`, { count: counts[kind] })}
          </button>
        ))}
      </div>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">{t("empty")}</p>
      ) : (
        <ol className="text-sm" data-testid="timeline">
          {visible.map((entry) => (
            <TimelineItem key={entry.key} entry={entry} currency={currency} onCorrect={note ? setCorrecting : undefined} />
          ))}
        </ol>
      )}
    </div>
  );
}
