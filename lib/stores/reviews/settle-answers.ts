import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { rows } from "@/lib/db/sql";
import type { PrismaTransaction } from "@/lib/db/transaction";
import { REVIEW_ANSWER_TOPIC } from "@/lib/outbox/answer-topic";
import { PAST_DEADLINE, type ReviewAnswerMessage } from "./model";
import { notSentReason } from "./not-sent";

/** An answer message the relay settled: delivered, dead (failed for good, or held back past the deadline), or to be tried again. */
export interface SettledAnswer {
  readonly tenantId: string;
  readonly reviewId: number;
  readonly messageId: number;
  readonly status: "delivered" | "pending" | "dead";
  readonly error: string | null;
}

/** The review an outbox message answers, when it is an answer. */
export function answerOf(topic: string, payload: unknown): ReviewAnswerMessage | null {
  return topic === REVIEW_ANSWER_TOPIC ? (payload as ReviewAnswerMessage) : null;
}

/**
 * When to try a failed answer again, given the relay's usual backoff (`retryInMs`, null at the
 * attempt limit); null ends it now, and its review is `failed` with the reason, for a person to act
 * on. A key problem (no key, a broken one, no bundle id) ends it at once: no retry can succeed until
 * someone fixes the configuration, and the review would otherwise say "sending" for hours. A retry
 * that would come at or after the deadline ends it too: the relay would only hold it back then.
 */
export function answerRetryInMs(answer: ReviewAnswerMessage, error: string, retryInMs: number | null, now: Date): number | null {
  if (retryInMs === null || notSentReason(error)) return null;
  return now.getTime() + retryInMs >= Date.parse(answer.deadlineAt) ? null : retryInMs;
}

const reviewRow = z.object({ id: z.number(), orderId: z.number().nullable(), store: z.string(), transactionId: z.string(), status: z.string() });

/**
 * What the relay's outcome means for the reviews it answered, in the relay's settling transaction:
 * delivered → sent; dead → failed (or expired when it was held back past the deadline); still
 * retrying → the last error, for the queue to show. Only the review's current message counts (a
 * review answered again after a failure has a newer one). Each change is an audit fact.
 */
export async function settleReviewAnswers(tx: PrismaTransaction, settled: readonly SettledAnswer[], actor: string): Promise<void> {
  for (const s of settled) {
    const status = s.status === "delivered" ? "sent" : s.status === "pending" ? "sending" : s.error === PAST_DEADLINE ? "expired" : "failed";
    const [review] = await rows(
      tx.client,
      reviewRow,
      `UPDATE refund_reviews SET status = $3, last_error = $4, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 AND message_id = $5 AND status = 'sending'
       RETURNING id::int AS id, order_id::int AS "orderId", store, transaction_id AS "transactionId", status`,
      [s.tenantId, s.reviewId, status, s.error, s.messageId],
    );
    if (!review || status === "sending") continue;
    await audit(
      {
        actor,
        action: status === "sent" ? "refund-review.sent" : status === "expired" ? "refund-review.expired" : "refund-review.failed",
        tenantId: s.tenantId,
        orderId: review.orderId,
        target: `${review.store}:${review.transactionId}`,
        detail: { reviewId: review.id, messageId: s.messageId, ...(s.error ? { error: s.error } : {}) },
      },
      tx.prisma,
    );
  }
}
