import "server-only";
import { z } from "zod";
import { maybeOne, type Queryable } from "@/lib/db/sql";
import { STORES } from "@/lib/orders/store-names";
import { REVIEW_STATUSES } from "./model";

const reviewRow = z.object({
  id: z.number(),
  tenantId: z.string(),
  store: z.enum(STORES),
  requestId: z.string(),
  transactionId: z.string(),
  orderId: z.number().nullable(),
  orderNo: z.string().nullable(),
  playerId: z.string().nullable(),
  reason: z.string().nullable(),
  accountToken: z.string().nullable(),
  requestedAt: z.coerce.date(),
  deadlineAt: z.coerce.date(),
  status: z.enum(REVIEW_STATUSES),
  answer: z.unknown(),
  answerUrl: z.string().nullable(),
  answeredBy: z.string().nullable(),
  answeredAt: z.coerce.date().nullable(),
  lastError: z.string().nullable(),
  environment: z.string().nullable(),
});
export type RefundReview = z.output<typeof reviewRow>;

/** One review with its order and player, and the tenant's App Store environment; `lock` takes its row lock (in a transaction). */
export function findReview(db: Queryable, id: number, options: { readonly lock?: boolean } = {}): Promise<RefundReview | null> {
  return maybeOne(
    db,
    reviewRow,
    `SELECT r.id::int AS id, r.tenant_id AS "tenantId", r.store, r.request_id AS "requestId", r.transaction_id AS "transactionId",
            r.order_id::int AS "orderId", o.order_no AS "orderNo", o.player_id AS "playerId", r.reason, r.account_token AS "accountToken",
            r.requested_at AS "requestedAt", r.deadline_at AS "deadlineAt", r.status, r.answer, r.answer_url AS "answerUrl",
            r.answered_by AS "answeredBy", r.answered_at AS "answeredAt", r.last_error AS "lastError", s.apple_environment AS environment
     FROM refund_reviews r
     LEFT JOIN orders o ON o.id = r.order_id AND o.tenant_id = r.tenant_id
     JOIN tenant_settings s ON s.tenant_id = r.tenant_id
     WHERE r.id = $1${options.lock ? " FOR UPDATE OF r" : ""}`,
    [id],
  );
}
