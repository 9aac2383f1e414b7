import "server-only";
import { audit } from "@/lib/audit/record";
import { execute } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { REVIEW_ANSWER_TOPIC } from "@/lib/outbox/answer-topic";
import { enqueueMessage } from "@/lib/outbox/outbox";
import { appleAnswerUrl, prefillAppleAnswer, type AppleConsumptionAnswer, type RefundPreference } from "./apple-answer";
import { findReview } from "./find-review";
import { REVIEW_SYSTEM_ACTOR, sendCheck, type ReviewAnswerMessage, type ReviewStatus } from "./model";
import { reviewFacts } from "./review-facts";

export interface SendAnswerInput {
  readonly reviewId: number;
  readonly actor: string;
  /** The player agreed, in the app, that we share consumption data: Apple refuses an answer without it. */
  readonly customerConsented: boolean;
  /** The agent's choice; by default the ledger's (apple-answer.ts). */
  readonly refundPreference?: RefundPreference;
  readonly now?: Date;
}

export type SendAnswerResult =
  /** The answer is in the outbox, on its way; `answer` is exactly what is sent, to `url`. */
  | { readonly result: "queued"; readonly answer: AppleConsumptionAnswer; readonly url: string; readonly messageId: number }
  /** Someone (or the worker) answered already: nothing sent twice. */
  | { readonly result: "answered"; readonly status: ReviewStatus }
  /** The deadline has passed: nothing is sent, and the review is expired. */
  | { readonly result: "expired" }
  | { readonly result: "consent-missing" }
  /** Google Play takes no answer through an API: its review is decided in the Play Console (model.ts). */
  | { readonly result: "store-not-supported" };


/**
 * Answers a refund review from the ledger, as one transaction: lock the review, refuse what may not
 * be sent (answered already, past the deadline, no consent), prefill the answer from the ledger as
 * it is now, put it in the outbox for the relay to deliver, and record exactly what goes where — on
 * the review and as an audit fact. The row lock makes a double click, or an agent racing the
 * worker, one answer.
 */
export function sendReviewAnswer(input: SendAnswerInput): Promise<SendAnswerResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<SendAnswerResult> => {
      const now = input.now ?? new Date();
      const review = await findReview(tx.client, input.reviewId, { lock: true });
      if (!review) throw new Error(`refund review ${input.reviewId} vanished under its lock`);
      const check = sendCheck(review, now);
      if (check === "expired") {
        await expire(tx, review);
        return { result: "expired" };
      }
      if (check === "answered") return { result: "answered", status: review.status };
      if (review.store !== "appstore") return { result: "store-not-supported" };
      if (!input.customerConsented) return { result: "consent-missing" };

      const prefilled = prefillAppleAnswer(await reviewFacts(tx.client, review), true);
      const answer: AppleConsumptionAnswer = { ...prefilled, refundPreference: input.refundPreference ?? prefilled.refundPreference };
      const url = appleAnswerUrl(review.transactionId, review.environment, process.env.APPLE_STORE_API_URL);
      const message: ReviewAnswerMessage = { reviewId: review.id, store: review.store, url, body: answer, deadlineAt: review.deadlineAt.toISOString() };
      const messageId = await enqueueMessage(tx.client, { tenantId: review.tenantId, orderId: review.orderId, topic: REVIEW_ANSWER_TOPIC, payload: message });
      await execute(
        tx.client,
        `UPDATE refund_reviews SET status = 'sending', answer = $2, answer_url = $3, answered_by = $4, answered_at = $5, message_id = $6, last_error = NULL, updated_at = now()
         WHERE id = $1`,
        [review.id, JSON.stringify(answer), url, input.actor, now, messageId],
      );
      await audit(
        {
          actor: input.actor,
          action: "refund-review.answered",
          tenantId: review.tenantId,
          orderId: review.orderId,
          target: `${review.store}:${review.transactionId}`,
          detail: { reviewId: review.id, store: review.store, requestId: review.requestId, url, answer, messageId },
        },
        tx.prisma,
      );
      return { result: "queued", answer, url, messageId };
    },
    { prisma: true },
  );
}

/** A review past its deadline with no answer delivered: expired (by the system, whoever noticed), with its audit fact, in the caller's transaction. */
export async function expire(tx: PrismaTransaction, review: { readonly id: number; readonly tenantId: string; readonly orderId: number | null; readonly store: string; readonly transactionId: string }): Promise<void> {
  const changed = await execute(tx.client, `UPDATE refund_reviews SET status = 'expired', updated_at = now() WHERE id = $1 AND status <> 'expired'`, [review.id]);
  if (changed === 0) return;
  await audit(
    { actor: REVIEW_SYSTEM_ACTOR, action: "refund-review.expired", tenantId: review.tenantId, orderId: review.orderId, target: `${review.store}:${review.transactionId}`, detail: { reviewId: review.id } },
    tx.prisma,
  );
}
