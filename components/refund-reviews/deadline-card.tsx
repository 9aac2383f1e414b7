import { useTranslations } from "next-intl";
import { useFormatDuration } from "@/components/orders/orders-duration";
import { Link } from "@/components/ui/link";
import type { ReviewsNearDeadline } from "@/lib/read/overview";

const CARD = "block rounded-lg border bg-white p-4 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

/**
 * The overview's warning about store refund reviews close to their deadline, of any store (issue 29,
 * item 5: a Google review expired with 39 minutes left and nothing said so). Which reviews count is
 * reviewState's word, the list's and the review page's too.
 */
export function ReviewDeadlineCard({ near }: { near: ReviewsNearDeadline }) {
  const t = useTranslations("refundReviews.overview");
  const warn = near.count > 0;
  return (
    <Link href="/refund-reviews" className={`${CARD} ${warn ? "border-red-200" : "border-slate-200"}`} data-testid="overview-refund-reviews">
      <span className="block text-sm text-slate-600">{t("card")}</span>
      <span className={`mt-1 block text-2xl font-semibold tabular-nums ${warn ? "text-red-700" : ""}`} data-testid="overview-refund-reviews-count">
        {near.count.toLocaleString("en-US")}
        {near.more ? "+" : ""}
      </span>
      <span className="mt-1 block text-xs text-slate-500">
        {near.soonestSecondsLeft !== null ? <Soonest seconds={near.soonestSecondsLeft} /> : null}
        {t("hint", { hours: near.withinHours })}
      </span>
    </Link>
  );
}

function Soonest({ seconds }: { seconds: number }) {
  const t = useTranslations("refundReviews.overview");
  const duration = useFormatDuration();
  return <span className="block font-medium text-red-700">{t("soonest", { duration: duration(seconds) })}</span>;
}
