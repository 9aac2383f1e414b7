"use client";

import { useLocale, useTranslations } from "next-intl";
import { CaseActions } from "@/components/cases/case-actions";
import { CaseNoticeArea } from "@/components/cases/case-notice";
import { CaseExplanationText, CaseStatusBadge, Owner, RefundLine, Sla } from "@/components/cases/case-text";
import { ExceptionKindName } from "@/components/orders/names";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import type { Assignee } from "@/lib/cases/queries/assignees";
import { CASE_FILTERS, type CaseFilter, type CaseQueue } from "@/lib/cases/filters";
import { useFormatDuration } from "./orders-duration";
import { OrderCell } from "./order-cell";

const TH = "p-3 font-medium";

interface QueueCasesProps {
  readonly queue: CaseQueue;
  readonly onFilter: (filter: CaseFilter) => void;
  readonly assignees: readonly Assignee[];
  readonly me: string;
}

/**
 * The case queue: filters (all, mine, unassigned, overdue — each with its count), then the cases,
 * most urgent first, in plain words, with their owner, age and SLA, and what the viewer can do.
 */
export function QueueCases(props: QueueCasesProps) {
  // Above the table, so an action's outcome stays said when its row leaves or moves (CaseNoticeArea).
  return (
    <CaseNoticeArea>
      <QueueCasesBody {...props} />
    </CaseNoticeArea>
  );
}

function QueueCasesBody({ queue, onFilter, assignees, me }: QueueCasesProps) {
  const t = useTranslations("cases");
  const q = useTranslations("queues");
  const keys = useListKeys();
  const duration = useFormatDuration();
  const roles = useTranslations("roles");
  const or = new Intl.ListFormat(useLocale() === "zh" ? "zh-CN" : "en-US", { type: "disjunction" });
  return (
    <div className="space-y-3">
      {queue.viewerWorks ? null : (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="cases-not-for-role">
          {t("notForRole", { roles: or.format(queue.workedBy.map((r) => roles(r))) })}
        </p>
      )}
      <div role="group" aria-label={t("filters.label")} className="flex flex-wrap gap-2">
        {CASE_FILTERS.map((filter) => {
          const count = queue.counts[filter];
          const selected = filter === queue.filter;
          return (
            <button
              key={filter}
              type="button"
              aria-pressed={selected}
              onClick={() => onFilter(filter)}
              data-testid={`case-filter-${filter}`}
              className={`inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${
                selected ? "border-slate-900 bg-white shadow-sm" : "border-slate-200 bg-slate-50 text-slate-600 hover:bg-white"
              }`}
            >
              {t(`filters.${filter}`)}
              <span className={`tabular-nums font-medium ${filter === "overdue" && count.total > 0 ? "text-red-700" : ""}`}>
                {count.more ? q("countMore", { count: count.total }) : count.total.toLocaleString()}
              </span>
            </button>
          );
        })}
      </div>
      {queue.items.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-6 text-sm text-slate-600">{t(`empty.${queue.filter}`)}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="w-full border-collapse text-sm" data-testid="queue-cases">
            <caption className="sr-only">{t("caption")}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-500">
                <th scope="col" className={TH}>{t("columns.case")}</th>
                <th scope="col" className={TH}>{t("columns.order")}</th>
                <th scope="col" className={TH}>{t("columns.status")}</th>
                <th scope="col" className={TH}>{t("columns.age")}</th>
                <th scope="col" className={TH}>{t("columns.sla")}</th>
                <th scope="col" className={TH}>{t("columns.actions")}</th>
              </tr>
            </thead>
            <tbody ref={keys}>
              {queue.items.map((c) => (
                <tr key={c.id} className="border-b border-slate-100 align-top last:border-0" data-testid={`queue-case-${c.id}`}>
                  <td className="max-w-md p-3">
                    <span className="text-xs">
                      <span className="font-mono text-slate-500">#{c.id}</span> <ExceptionKindName kind={c.kind} />
                    </span>
                    <span className="mt-1 block text-slate-900">
                      <CaseExplanationText explanation={c.explanation} />
                    </span>
                    {/* A refund still owed an answer: where it stands, from the facts (sent, on its way, or not sent and why). */}
                    {c.refunds
                      .filter((r) => r.reach.kind !== "answered")
                      .map((r) => (
                        <span key={r.refundId} className="mt-1 block text-xs">
                          <RefundLine refund={r} currency={c.currency} testId={`queue-case-refund-${r.refundId}`} />
                        </span>
                      ))}
                  </td>
                  <td className="whitespace-nowrap p-3">
                    <OrderCell tenantId={c.tenantId} orderNo={c.order?.orderNo ?? null} none={t("noOrder")} copyLabel={q("table.copy")} />
                  </td>
                  <td className="p-3">
                    <CaseStatusBadge status={c.status} />
                    <span className="mt-1 block text-xs">
                      <Owner owner={c.owner} me={me} />
                    </span>
                  </td>
                  <td className="p-3">
                    <span className="font-medium tabular-nums">{duration(c.ageSeconds)}</span>
                    <span className="block text-xs text-slate-500">
                      <Time value={c.createdAt} secondsAgo={c.ageSeconds} />
                    </span>
                  </td>
                  <td className="whitespace-nowrap p-3 text-xs">
                    <Sla dueInSeconds={c.dueInSeconds} active />
                  </td>
                  <td className="p-3">
                    <CaseActions view={c} assignees={assignees} me={me} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
