import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { STORES } from "@/lib/stores/model";
import { REVIEW_STATUSES } from "./model";

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
  /** Seconds until the deadline; negative once it has passed. */
  secondsLeft: z.number(),
});
export type QueuedReview = z.output<typeof queueRow>;

export const REVIEW_QUEUE_LIMIT = 200;

/**
 * The deadline queue of the caller's tenants: what still needs an answer (open, failed) and what is
 * on its way (sending), soonest deadline first; then what is settled, newest deadline first. Per
 * tenant by (tenant_id, status, deadline_at).
 */
export function listRefundReviews(tenantIds: readonly string[], limit = REVIEW_QUEUE_LIMIT): Promise<QueuedReview[]> {
  if (tenantIds.length === 0) return Promise.resolve([]);
  return rows(
    getPool(),
    queueRow,
    `SELECT r.id::int AS id, r.tenant_id AS "tenantId", r.store, r.transaction_id AS "transactionId", o.order_no AS "orderNo", o.player_id AS "playerId",
            r.reason, r.requested_at AS "requestedAt", r.deadline_at AS "deadlineAt", r.status,
            floor(extract(epoch FROM r.deadline_at - now()))::int AS "secondsLeft"
     FROM refund_reviews r LEFT JOIN orders o ON o.id = r.order_id AND o.tenant_id = r.tenant_id
     WHERE r.tenant_id = ANY($1::text[])
     ORDER BY (r.status IN ('open', 'failed', 'sending')) DESC,
              CASE WHEN r.status IN ('open', 'failed', 'sending') THEN r.deadline_at END ASC,
              r.deadline_at DESC, r.id DESC
     LIMIT $2`,
    [tenantIds, limit],
  );
}
