import { useTranslations } from "next-intl";
import { useFormatDuration } from "@/components/orders/orders-duration";
import type { ReviewState, ShownStatus } from "@/lib/stores/reviews/review-state";

const TONE: Readonly<Record<ShownStatus, string>> = {
  open: "bg-amber-50 text-amber-900",
  sending: "bg-sky-50 text-sky-900",
  retrying: "bg-sky-50 text-sky-900",
  sent: "bg-emerald-50 text-emerald-900",
  "not-sent": "bg-red-50 text-red-800",
  expired: "bg-slate-100 text-slate-700",
};

/** The review's status as reviewState derived it: the same words on the list, the review page and the overview. */
export function ReviewStatusBadge({ status }: { status: ShownStatus }) {
  const t = useTranslations("refundReviews.statuses");
  return (
    <span className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${TONE[status]}`} data-status={status}>
      {t(status)}
    </span>
  );
}

/** What is left until the store stops listening, while an answer is still awaited; amber once it is close. */
export function TimeLeft({ state, secondsLeft }: { state: Pick<ReviewState, "awaiting" | "nearDeadline">; secondsLeft: number }) {
  const t = useTranslations("refundReviews");
  const duration = useFormatDuration();
  // Sent, or expired: the deadline no longer asks anything of anyone (the status says which).
  if (!state.awaiting || secondsLeft <= 0) return <span className="text-slate-500">—</span>;
  return (
    <span className={state.nearDeadline ? "font-medium text-amber-800" : undefined} data-testid={state.nearDeadline ? "review-near-deadline" : undefined}>
      {t("left", { duration: duration(secondsLeft) })}
    </span>
  );
}
