import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { STORES } from "@/lib/orders/store-names";
import { REVIEW_STATUSES } from "./model";
import { reviewState, UNSETTLED_STATUSES, type ReviewState } from "./review-state";

const queueRow = z.object({
  id: z.number(),
  tenantId: z.string(),
  store: z.enum(STORES),
  transactionId: z.string(),
  orderNo: z.string().nullable(),
  playerId: z.string().nullable(),
  reason: z.string().nullable(),
  requestedAt: z.coerce.date(),
  deadlineAt: z.coerce.date(),
  status: z.enum(REVIEW_STATUSES),
  lastError: z.string().nullable(),
  /** Seconds until the deadline; negative once it has passed. */
  secondsLeft: z.number(),
});
/** A row of the queue with what it is now (review-state.ts), which is what the page shows. */
export type QueuedReview = z.output<typeof queueRow> & { readonly state: ReviewState };

export const REVIEW_QUEUE_LIMIT = 200;

/**
 * The deadline queue of the caller's tenants: what still needs an answer (open, failed) and what is
 * on its way (sending), soonest deadline first; then what is settled, newest deadline first. Per
 * tenant by (tenant_id, status, deadline_at).
 */
export async function listRefundReviews(tenantIds: readonly string[], limit = REVIEW_QUEUE_LIMIT, now = new Date()): Promise<QueuedReview[]> {
  if (tenantIds.length === 0) return [];
  const found = await rows(
    getPool(),
    queueRow,
    `SELECT r.id::int AS id, r.tenant_id AS "tenantId", r.store, r.transaction_id AS "transactionId", o.order_no AS "orderNo", o.player_id AS "playerId",
            r.reason, r.requested_at AS "requestedAt", r.deadline_at AS "deadlineAt", r.status, r.last_error AS "lastError",
            floor(extract(epoch FROM r.deadline_at - now()))::int AS "secondsLeft"
     FROM refund_reviews r LEFT JOIN orders o ON o.id = r.order_id AND o.tenant_id = r.tenant_id
     WHERE r.tenant_id = ANY($1::text[])
     ORDER BY (r.status = ANY($3::text[])) DESC,
              CASE WHEN r.status = ANY($3::text[]) THEN r.deadline_at END ASC,
              r.deadline_at DESC, r.id DESC
     LIMIT $2`,
    [tenantIds, limit, UNSETTLED_STATUSES],
  );
  return found.map((r) => ({ ...r, state: reviewState(r, now) }));
}
