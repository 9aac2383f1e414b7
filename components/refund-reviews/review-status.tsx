import { useTranslations } from "next-intl";
import { useFormatDuration } from "@/components/orders/orders-duration";
import type { ReviewStatus } from "@/lib/stores/reviews/model";

const TONE: Readonly<Record<ReviewStatus, string>> = {
  open: "bg-amber-50 text-amber-900",
  sending: "bg-sky-50 text-sky-900",
  sent: "bg-emerald-50 text-emerald-900",
  failed: "bg-red-50 text-red-800",
  expired: "bg-slate-100 text-slate-700",
};

export function ReviewStatusBadge({ status }: { status: ReviewStatus }) {
  const t = useTranslations("refundReviews.statuses");
  return <span className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${TONE[status]}`}>{t(status)}</span>;
}

/** What is left until the store stops listening; overdue in red while the review still waits for an answer. */
export function TimeLeft({ status, secondsLeft }: { status: ReviewStatus; secondsLeft: number }) {
  const t = useTranslations("refundReviews");
  const duration = useFormatDuration();
  if (status !== "open" && status !== "failed" && status !== "sending") return <span className="text-slate-500">—</span>;
  if (secondsLeft <= 0) {
    return (
      <span className="font-medium text-red-700" data-testid="review-overdue">
        {t("overdue", { duration: duration(-secondsLeft) })}
      </span>
    );
  }
  return <span className={secondsLeft < 3_600 ? "font-medium text-amber-800" : undefined}>{t("left", { duration: duration(secondsLeft) })}</span>;
}
