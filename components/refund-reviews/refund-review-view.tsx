"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { notFound, usePathname } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { AnswerTable } from "@/components/refund-reviews/answer-table";
import { ReviewProblemNotice } from "@/components/refund-reviews/review-last-error";
import { ReviewStatusBadge, TimeLeft } from "@/components/refund-reviews/review-status";
import { SendAnswerForm } from "@/components/refund-reviews/send-answer-form";
import { REFUND_REVIEWS_KEY, refundReviewQuery } from "@/components/record-queries";
import { Link } from "@/components/ui/link";
import { RecordLoading } from "@/components/ui/page-loading";
import { useRecordTitle } from "@/components/ui/record-title";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { formatMoney } from "@/lib/format";
import type { RefundReviewModel } from "@/lib/read/refund-reviews";
import { orderHref, playerHref, RECORD_PAGES, recordOfPath, refundReviewHref } from "@/lib/http/record-pages";

/**
 * One refund review: what the store asked, the facts the ledger holds, and the answer they make —
 * prefilled until it is sent, then exactly what was sent. Its read model (lib/read/refund-reviews.ts)
 * comes from /api/console/refund-reviews/<id>, which decides the status, the time left and whether
 * the viewer may send; the page lays it out.
 *
 * One shell serves every review (proxy.ts rewrites /refund-reviews/<id> to it), so the review is
 * named by the address in the browser, not by the page's params.
 */
export function RefundReviewView() {
  const { id } = recordOfPath(RECORD_PAGES.refundReview, usePathname()) ?? notFound();
  const client = useQueryClient();
  const { data, error } = useQuery({
    // Opened from the cache (a link's prefetch, back or forward), then read again unless just read.
    ...refundReviewQuery(id),
    retry: retryRead,
  });
  const refresh = useCallback(() => {
    // The list's copy says the review's old status: dropped, so going back shows the list read anew
    // rather than "Open" above an answer that was sent.
    client.removeQueries({ queryKey: REFUND_REVIEWS_KEY, exact: true });
    // The review's query is under the list's key: read again once an answer was sent from the page.
    return client.invalidateQueries({ queryKey: refundReviewQuery(id).queryKey });
  }, [client, id]);
  useRecordTitle(useTranslations("refundReviews.review")("tabTitle", { id }));

  if (error) showReadRefusal(error, refundReviewHref(id), "orders:view");
  if (!data) return <RefundReviewLoading />;
  return (
    <RefreshViewProvider refresh={refresh}>
      <RefundReviewBody model={data} />
    </RefreshViewProvider>
  );
}

function RefundReviewLoading() {
  return <RecordLoading status={useTranslations("refundReviews")("loading")} />;
}

function RefundReviewBody({ model: m }: { model: RefundReviewModel }) {
  const t = useTranslations("refundReviews");
  const locale = useLocale();
  const { review, state, facts } = m;
  return (
    <div className="space-y-6">
      <header className="rounded-lg border border-slate-200 bg-white p-5">
        <p className="text-sm text-slate-500">
          <Link href="/refund-reviews" className="underline-offset-2 hover:underline">
            {t("title")}
          </Link>
        </p>
        <h1 className="mt-1 text-xl font-semibold">{t("review.heading", { store: t(`stores.${review.store}`) })}</h1>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">{t("columns.status")}</dt>
          <dd data-testid="review-status">
            <ReviewStatusBadge status={state.status} />
          </dd>
          <dt className="text-slate-500">{t("columns.timeLeft")}</dt>
          <dd>
            <TimeLeft state={state} secondsLeft={m.secondsLeft} />
            <div className="text-xs text-slate-500">
              {t("review.deadline")} <Time value={review.deadlineAt} secondsAgo={-m.secondsLeft} />
            </div>
          </dd>
          <dt className="text-slate-500">{t("columns.order")}</dt>
          <dd>
            {review.orderNo ? (
              <Link href={orderHref(review.tenantId, review.orderNo)} className="font-mono underline-offset-2 hover:underline">
                {review.orderNo}
              </Link>
            ) : (
              t("noOrder")
            )}
          </dd>
          <dt className="text-slate-500">{t("columns.player")}</dt>
          <dd className="break-all font-mono">
            {review.playerId ? (
              <Link href={playerHref(review.tenantId, review.playerId)} className="underline-offset-2 hover:underline">
                {review.playerId}
              </Link>
            ) : (
              "—"
            )}
          </dd>
          <dt className="text-slate-500">{t("review.transaction")}</dt>
          <dd className="break-all font-mono text-xs">{review.transactionId}</dd>
          <dt className="text-slate-500">{t("review.reason")}</dt>
          <dd className="font-mono text-xs">{review.reason ?? "—"}</dd>
          <dt className="text-slate-500">{t("columns.requested")}</dt>
          <dd>
            <Time value={review.requestedAt} />
          </dd>
        </dl>
      </header>

      <section aria-labelledby="review-facts-heading" className="space-y-2">
        <h2 id="review-facts-heading" className="font-semibold">
          {t("review.facts")}
        </h2>
        {facts.lines.length === 0 ? (
          <p className="text-sm text-slate-600">{t("review.noLines")}</p>
        ) : (
          <Table caption={t("review.linesCaption")} testId="review-lines" columns={[{ label: t("review.sku") }, { label: t("review.delivered"), align: "right" }]}>
            <tbody>
              {facts.lines.map((l) => (
                <tr key={l.sku} className="border-b border-slate-100 last:border-0">
                  <td className="p-3 font-mono text-xs">{l.sku}</td>
                  <td className="p-3 text-right tabular-nums">{t("review.ofQuantity", { delivered: l.delivered, quantity: l.quantity })}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        <ul className="text-sm text-slate-700" data-testid="review-money">
          {facts.money.map((money) => (
            <li key={money.currency}>
              {t("review.money", { paid: formatMoney(money.paid, money.currency, locale), refunded: formatMoney(money.refunded, money.currency, locale) })}
            </li>
          ))}
        </ul>
      </section>

      {review.store === "googleplay" ? (
        <section aria-labelledby="review-answer-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-5" data-testid="review-google">
          <h2 id="review-answer-heading" className="font-semibold">
            {t("google.heading")}
          </h2>
          <p className="max-w-3xl text-sm text-slate-700">{t("google.what")}</p>
          <p className="max-w-3xl text-sm text-slate-700">{t(state.awaiting ? "google.todo" : "google.done")}</p>
        </section>
      ) : m.prefilled ? (
        <AppleAnswer model={m} prefilled={m.prefilled} />
      ) : null}
    </div>
  );
}

/** The App Store's answer: the one sent or on its way, why none reached the store, or the form to send it. */
function AppleAnswer({ model: m, prefilled }: { model: RefundReviewModel; prefilled: NonNullable<RefundReviewModel["prefilled"]> }) {
  const t = useTranslations("refundReviews");
  const { review, state, answer } = m;
  return (
    <section aria-labelledby="review-answer-heading" className="space-y-2">
      <h2 id="review-answer-heading" className="font-semibold">
        {t(`review.answerHeading.${m.answerHeading}`)}
      </h2>
      {answer && review.answeredBy ? (
        <p className="text-sm text-slate-600" data-testid="review-answered-by">
          {t(state.status === "sent" ? "review.sentBy" : "review.queuedBy", { actor: review.answeredBy })}{" "}
          {review.answeredAt ? <Time value={review.answeredAt} /> : null}
          <span className="block break-all font-mono text-xs">{review.answerUrl}</span>
        </p>
      ) : null}
      {state.problem ? <ReviewProblemNotice problem={state.problem} state={state} keysEnv={m.keysEnv} /> : null}
      {m.mayAnswer ? (
        <>
          <p className="max-w-3xl text-sm text-slate-600">{t("review.prefilledHint")}</p>
          {/* A new form once the review changed (an answer queued, then not sent): what the last
              send said ("on its way") must not stay beside a status that says otherwise. A refusal
              that changed nothing keeps what was chosen. */}
          <SendAnswerForm
            key={`${state.status} ${review.answeredAt?.toISOString() ?? ""}`}
            reviewId={review.id}
            prefilled={prefilled}
            caption={t("review.answerHeading.prefilled")}
          />
        </>
      ) : answer ? (
        <AnswerTable answer={answer} caption={t(`review.answerHeading.${m.answerHeading}`)} testId="review-answer" />
      ) : state.status === "open" ? (
        <>
          <p className="max-w-3xl text-sm text-slate-600">{t("review.prefilledHint")}</p>
          <AnswerTable answer={prefilled} caption={t("review.answerHeading.prefilled")} testId="review-answer" />
        </>
      ) : null}
    </section>
  );
}
