import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { ExceptionKindName } from "@/components/orders/names";
import { Time } from "@/components/ui/time";
import { isActive } from "@/lib/cases/model";
import { personOf } from "@/lib/cases/offers";
import type { Assignee } from "@/lib/cases/queries/assignees";
import type { CaseView } from "@/lib/cases/view";
import { orderHref } from "@/lib/http/record-pages";
import { CaseActions } from "./case-actions";
import { CaseExplanationText, CaseStatusBadge, Owner, RefundLine, ResolutionName, Sla } from "./case-text";

/**
 * One case as the order page shows it: what happened in plain words, where it stands (status, owner,
 * SLA), its refunds, how it ended — and, while it is active, what the viewer can do about it.
 */
export function CaseCard({ view, assignees, me }: { view: CaseView; assignees: readonly Assignee[]; me: string }) {
  const t = useTranslations("cases.card");
  const active = isActive(view.status);
  return (
    <article
      className={`rounded-md border p-3 ${active ? (view.dueInSeconds < 0 ? "border-red-300 bg-white" : "border-amber-200 bg-white") : "border-slate-200 bg-slate-50"}`}
      data-testid={`case-${view.id}`}
      aria-label={t("label", { id: view.id })}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono text-xs text-slate-500">#{view.id}</span>
        <ExceptionKindName kind={view.kind} />
        <CaseStatusBadge status={view.status} />
        <span className="text-xs text-slate-600">
          {t("owner")} <Owner owner={view.owner} me={me} />
        </span>
        <span className="ml-auto text-xs">
          <Sla dueInSeconds={view.dueInSeconds} active={active} />
        </span>
      </div>
      <p className="mt-2 text-sm text-slate-900" data-testid={`case-explanation-${view.id}`}>
        <CaseExplanationText explanation={view.explanation} />
      </p>
      <p className="mt-1 text-xs text-slate-500">
        {t("filed")} <Time value={view.createdAt} />
      </p>
      {view.refunds.length > 0 ? (
        <ul className="mt-2 space-y-0.5 text-xs text-slate-700">
          {view.refunds.map((r) => (
            <li key={r.refundId}>
              <RefundLine refund={r} currency={view.currency} testId={`case-refund-${r.refundId}`} />
            </li>
          ))}
        </ul>
      ) : null}
      {active && view.resolution ? (
        <p className="mt-1 text-xs text-slate-600">
          {t("chosen")} <ResolutionName resolution={view.resolution} />
        </p>
      ) : null}
      {!active ? (
        <p className="mt-2 text-xs text-slate-700">
          {view.status === "resolved" && view.resolution ? <ResolutionName resolution={view.resolution} /> : null}{" "}
          {view.resolvedBy ? t("closedBy", { by: personOf(view.resolvedBy) }) : null} {view.resolvedAt ? <Time value={view.resolvedAt} /> : null}
          {view.resolvedReason ? <span className="block">{t("reason", { reason: view.resolvedReason })}</span> : null}
          {view.resolutionRef ? (
            <span className="block">
              {t("honouredBy")}{" "}
              <Link className="font-mono underline" href={orderHref(view.tenantId, view.resolutionRef)}>
                {view.resolutionRef}
              </Link>
            </span>
          ) : null}
        </p>
      ) : null}
      {active ? (
        <div className="mt-3">
          <CaseActions view={view} assignees={assignees} me={me} />
        </div>
      ) : null}
    </article>
  );
}
