import "server-only";
import { execute } from "@/lib/db/sql";
import type { Tx } from "@/lib/db/transaction";
import type { StoreName } from "@/lib/orders/store-names";
import { REVIEW_DEADLINE_MS } from "./model";

export interface ReviewRequest {
  readonly tenantId: string;
  readonly store: StoreName;
  /** The store's id of the request (Apple: the notification's notificationUUID). */
  readonly requestId: string;
  readonly transactionId: string;
  readonly orderId: number | null;
  readonly reason: string | null;
  readonly accountToken: string | null;
  /** When the store asked (its signedDate): the deadline counts from then. */
  readonly requestedAt: Date;
}

/**
 * A store's refund review, put in the deadline queue, in the transaction that stores the store's
 * request. Keyed by the store's id for the request, so a retried notification never makes a second.
 */
export async function openRefundReview(tx: Tx, r: ReviewRequest): Promise<void> {
  await execute(
    tx.client,
    `INSERT INTO refund_reviews (tenant_id, store, request_id, transaction_id, order_id, reason, account_token, requested_at, deadline_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (tenant_id, store, request_id) DO NOTHING`,
    [r.tenantId, r.store, r.requestId, r.transactionId, r.orderId, r.reason, r.accountToken, r.requestedAt, new Date(r.requestedAt.getTime() + REVIEW_DEADLINE_MS[r.store])],
  );
}
