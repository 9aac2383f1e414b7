import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { orderHref } from "@/components/orders/orders-table";
import { AnswerTable } from "@/components/refund-reviews/answer-table";
import { ReviewProblemNotice } from "@/components/refund-reviews/review-last-error";
import { ReviewStatusBadge, TimeLeft } from "@/components/refund-reviews/review-status";
import { SendAnswerForm } from "@/components/refund-reviews/send-answer-form";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { pathSegment, requireResource, requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { refundReviewScope } from "@/lib/auth/scope";
import { getPool } from "@/lib/db/pool";
import { formatMoney } from "@/lib/format";
import { prefillAppleAnswer, type AppleConsumptionAnswer } from "@/lib/stores/reviews/apple-answer";
import { findReview } from "@/lib/stores/reviews/find-review";
import { reviewFacts } from "@/lib/stores/reviews/review-facts";
import { reviewState } from "@/lib/stores/reviews/review-state";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("refundReviews"))("review.title") };
}

/**
 * One refund review: what the store asked, the facts the ledger holds, and the answer they make —
 * prefilled until it is sent, then exactly what was sent. Who may ask a refund may send it.
 */
export default async function RefundReviewPage({ params }: Props) {
  const staff = await requireStaff("orders:view");
  const requested = Number(pathSegment((await params).id));
  if (!Number.isSafeInteger(requested) || requested <= 0) notFound();
  const { id } = await requireResource(staff, refundReviewScope((v: { id: number }) => v.id), { id: requested });
  const review = await findReview(getPool(), id);
  if (!review) notFound();
  const [facts, t, locale] = await Promise.all([reviewFacts(getPool(), review), getTranslations("refundReviews"), getLocale()]);
  const now = new Date();
  // One measurement for the time left and the deadline's "in …" beside it (<Time secondsAgo>).
  const secondsLeft = Math.floor((review.deadlineAt.getTime() - now.getTime()) / 1000);
  const prefilled = prefillAppleAnswer(facts, false);
  // What the review is now, derived once (review-state.ts): the badge, the notice and the form all follow it.
  const state = reviewState(review, now);
  const queued = review.answer as AppleConsumptionAnswer | null;
  const mayAnswer = state.answerable && can(staff.role, "orders:event");
  // Which answer the section is about, as the status says: the one the store took, the one on its
  // way, none that got there, or — while none was sent — the ledger's, prefilled.
  const heading = ({ open: "prefilled", sending: "queued", retrying: "queued", sent: "sent", "not-sent": "notDelivered", expired: "notDelivered" } as const)[state.status];

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
            <TimeLeft state={state} secondsLeft={secondsLeft} />
            <div className="text-xs text-slate-500">
              {t("review.deadline")} <Time value={review.deadlineAt} secondsAgo={-secondsLeft} />
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
              <Link href={`/players/${encodeURIComponent(review.tenantId)}/${encodeURIComponent(review.playerId)}`} className="underline-offset-2 hover:underline">
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
          {facts.money.map((m) => (
            <li key={m.currency}>{t("review.money", { paid: formatMoney(m.paid, m.currency, locale), refunded: formatMoney(m.refunded, m.currency, locale) })}</li>
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
      ) : (
        <section aria-labelledby="review-answer-heading" className="space-y-2">
          <h2 id="review-answer-heading" className="font-semibold">
            {t(`review.answerHeading.${heading}`)}
          </h2>
          {queued && review.answeredBy ? (
            <p className="text-sm text-slate-600" data-testid="review-answered-by">
              {t(state.status === "sent" ? "review.sentBy" : "review.queuedBy", { actor: review.answeredBy })}{" "}
              {review.answeredAt ? <Time value={review.answeredAt} /> : null}
              <span className="block break-all font-mono text-xs">{review.answerUrl}</span>
            </p>
          ) : null}
          {state.problem ? <ReviewProblemNotice problem={state.problem} state={state} /> : null}
          {mayAnswer ? (
            <>
              <p className="max-w-3xl text-sm text-slate-600">{t("review.prefilledHint")}</p>
              <SendAnswerForm reviewId={review.id} prefilled={prefilled} caption={t("review.answerHeading.prefilled")} />
            </>
          ) : queued ? (
            <AnswerTable answer={queued} caption={t(`review.answerHeading.${heading}`)} testId="review-answer" />
          ) : state.status === "open" ? (
            <>
              <p className="max-w-3xl text-sm text-slate-600">{t("review.prefilledHint")}</p>
              <AnswerTable answer={prefilled} caption={t("review.answerHeading.prefilled")} testId="review-answer" />
            </>
          ) : null}
        </section>
      )}
    </div>
  );
}
