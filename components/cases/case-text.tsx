import { useLocale, useTranslations } from "next-intl";
import { describeCase, describeRefundReach } from "@/lib/cases/describe-case";
import type { CaseExplanation } from "@/lib/cases/explain";
import type { CaseRefundView } from "@/lib/cases/view";
import { isCaseStatus, isResolution, type CaseStatus } from "@/lib/cases/model";
import { personOf } from "@/lib/cases/offers";
import type { Translate } from "@/lib/i18n/describe-problem";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { useFormatDuration } from "@/components/orders/orders-duration";
import { formatMoney } from "@/lib/format";

/** Money in the UI's language: "¥18.00" in Chinese, "CN¥18.00" in English. */
export function useMoney(): (minor: number, currency: string) => string {
  const locale = useLocale();
  return (minor, currency) => formatMoney(minor, currency, locale === "zh" ? "zh-CN" : "en-US");
}

// A case's words: its explanation, status, owner and SLA, in the UI's language. Server and client
// components alike (no "use client": the caller decides).

export function useDescribeCase(): (explanation: CaseExplanation) => string {
  const t = useTranslations() as unknown as Translate;
  const locale = useLocale();
  return (explanation) => describeCase(explanation, t, isLocale(locale) ? locale : DEFAULT_LOCALE);
}

export function CaseExplanationText({ explanation }: { explanation: CaseExplanation }) {
  const describe = useDescribeCase();
  return <>{describe(explanation)}</>;
}

const STATUS_STYLE: Readonly<Record<CaseStatus, string>> = {
  open: "border-amber-300 bg-amber-50 text-amber-900",
  "in-progress": "border-sky-300 bg-sky-50 text-sky-900",
  resolved: "border-emerald-300 bg-emerald-50 text-emerald-900",
  dismissed: "border-slate-300 bg-slate-50 text-slate-700",
};

export function CaseStatusBadge({ status }: { status: string }) {
  const t = useTranslations("cases.status");
  if (!isCaseStatus(status)) return <span className="font-mono text-xs">{status}</span>;
  return <span className={`inline-block whitespace-nowrap rounded border px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[status]}`}>{t(status)}</span>;
}

/** The owner as a person reads it: "you", an email, or nobody yet. */
export function Owner({ owner, me }: { owner: string | null; me?: string }) {
  const t = useTranslations("cases.owner");
  if (owner === null) return <span className="text-slate-500">{t("none")}</span>;
  if (owner === me) return <span className="font-medium">{t("you")}</span>;
  return <span className="break-all">{personOf(owner)}</span>;
}

/** Due in …, or overdue by … in red: the SLA at the snapshot's instant. */
export function Sla({ dueInSeconds, active }: { dueInSeconds: number; active: boolean }) {
  const t = useTranslations("cases.sla");
  const duration = useFormatDuration();
  if (!active) return <span className="text-slate-400">—</span>;
  return dueInSeconds < 0 ? (
    <span className="font-medium text-red-700" data-overdue="true">
      {t("overdue", { duration: duration(-dueInSeconds) })}
    </span>
  ) : (
    <span className="text-slate-700">{t("dueIn", { duration: duration(dueInSeconds) })}</span>
  );
}

export function ResolutionName({ resolution }: { resolution: string }) {
  const t = useTranslations("cases.resolutions");
  return isResolution(resolution) ? <>{t(resolution)}</> : <span className="font-mono text-xs">{resolution}</span>;
}

/**
 * A refund of a case and where it stands: "Refund rf-…: ¥18.00, not sent to the payment channel:
 * this product has no webhook configured". Red while it has not reached the channel.
 */
export function RefundLine({ refund, currency, testId }: { refund: CaseRefundView; currency: string; testId: string }) {
  const t = useTranslations();
  const card = useTranslations("cases.card");
  const money = useMoney();
  const where = describeRefundReach(refund.reach, refund.status, t as unknown as Translate);
  return (
    <span className={refund.reach.kind === "not-sent" ? "text-red-800" : ""} data-testid={testId} data-reach={refund.reach.kind}>
      {card("refund", { refundId: refund.refundId, amount: money(refund.amount, currency), status: where })}
    </span>
  );
}
