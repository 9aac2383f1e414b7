"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { ReviewStatusBadge, TimeLeft } from "@/components/refund-reviews/review-status";
import { REFUND_REVIEWS_KEY } from "@/components/record-queries";
import { Link } from "@/components/ui/link";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import { OrderCell } from "@/components/orders/order-cell";
import type { RefundReviewsModel } from "@/lib/read/refund-reviews";
import { readModel } from "@/lib/read/wire";
import { playerHref, refundReviewHref } from "@/lib/http/record-pages";


/**
 * The deadline queue of store refund reviews in the caller's products: each request with its order,
 * its player and the time left to answer, what still waits first and the soonest deadline on top.
 * Its read model (lib/read/refund-reviews.ts) comes from /api/console/refund-reviews.
 */
export function RefundReviewsView() {
  const t = useTranslations("refundReviews");
  const keys = useListKeys();
  const { data, error } = useQuery({
    queryKey: REFUND_REVIEWS_KEY,
    queryFn: ({ signal }) => readModel<RefundReviewsModel>("/api/console/refund-reviews", signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/refund-reviews", "orders:view");
  if (!data) return <RefundReviewsLoading />;
  const { reviews } = data;
  return (
    <div className="space-y-4">
      <header>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </header>
      {reviews.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="refund-reviews-empty">
          {t("empty")}
        </p>
      ) : (
        <Table
          caption={t("caption")}
          testId="refund-reviews"
          columns={[{ label: t("columns.request") }, { label: t("columns.order") }, { label: t("columns.player") }, { label: t("columns.timeLeft") }, { label: t("columns.status") }, { label: t("columns.requested") }]}
        >
          <tbody ref={keys}>
            {reviews.map((r) => (
              <tr key={r.id} className="border-b border-slate-100 align-top last:border-0" data-testid={`refund-review-${r.id}`}>
                <td className="p-3">
                  <Link href={refundReviewHref(r.id)} className="font-medium underline-offset-2 hover:underline">
                    {t(`stores.${r.store}`)}
                  </Link>
                  <div className="break-all font-mono text-xs text-slate-500">{r.transactionId}</div>
                  {r.store === "googleplay" && r.state.awaiting ? <div className="text-xs text-slate-600">{t("googleHint")}</div> : null}
                </td>
                <td className="p-3">
                  <OrderCell tenantId={r.tenantId} orderNo={r.orderNo} none={t("noOrder")} />
                </td>
                <td className="break-all p-3 font-mono text-xs">
                  {r.playerId ? (
                    <Link href={playerHref(r.tenantId, r.playerId)} className="underline-offset-2 hover:underline">
                      {r.playerId}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="whitespace-nowrap p-3">
                  <TimeLeft state={r.state} secondsLeft={r.secondsLeft} />
                </td>
                <td className="p-3">
                  <ReviewStatusBadge status={r.state.status} />
                </td>
                <td className="p-3 text-xs text-slate-700">
                  <Time value={r.requestedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

/** While the list loads: its title and a block. */
function RefundReviewsLoading() {
  const t = useTranslations("refundReviews");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-64" />
    </PageLoading>
  );
}
