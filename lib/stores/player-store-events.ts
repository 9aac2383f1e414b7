import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows, type Queryable } from "@/lib/db/sql";
import { STORES } from "@/lib/orders/store-names";
import { REFUND_SIGNALS } from "@/lib/stores/apple/model";
import { NOTIFICATION_OUTCOMES } from "@/lib/stores/model";

// What the stores said about a player's orders (issue 16): the App Store's refunds, declined and
// reversed refunds and refund reviews (consumption requests), and Google Play's voided purchases
// (full or partial refunds), newest first — the refund-abuse facts an agent reads beside the
// player's money. A range of the player's orders (tenant_id, player_id, created_at), then the
// notifications of each by (tenant_id, order_id).

export const STORE_EVENT_TYPES = [...REFUND_SIGNALS, "VOIDED_PURCHASE", "CONSUMPTION_REQUEST"] as const;
export type StoreEventType = (typeof STORE_EVENT_TYPES)[number];

export const PLAYER_STORE_EVENT_LIMIT = 50;

const eventRow = z.object({
  id: z.number(),
  orderNo: z.string(),
  store: z.enum(STORES),
  type: z.enum(STORE_EVENT_TYPES),
  /** A refund of part of the order: a Google Play void of some units, or an App Store prorated refund. */
  partial: z.boolean(),
  outcome: z.enum(NOTIFICATION_OUTCOMES),
  transactionId: z.string().nullable(),
  /**
   * The money it moved beside the order's state (lib/orders/refund-money.ts), in `currency`: what a
   * partial refund refunded, or (negative) what a reversal gave back of it; null when none.
   */
  refundedAmount: z.coerce.number().nullable(),
  currency: z.string(),
  signedAt: z.coerce.date(),
  deadlineAt: z.coerce.date().nullable(),
  refunds: z.number(),
  reversals: z.number(),
  total: z.number(),
});

export type PlayerStoreEvent = Omit<z.output<typeof eventRow>, "refunds" | "reversals" | "total">;

export interface PlayerStoreEvents {
  readonly events: readonly PlayerStoreEvent[];
  readonly total: number;
  /**
   * Over the player's whole history here: the stores' refunds (Apple's REFUND, Google's voids), and
   * reversed refunds. A refund fact the order already agreed with (outcome `unchanged`: Google's
   * push and poll of one void, a store repeating itself) is listed but not counted again.
   */
  readonly refunds: number;
  readonly reversals: number;
}

// An App Store refund is partial by refundMeasure's rule (lib/stores/apple/model.ts): prorated, with
// a share under 100% (100,000 milli-percent); a prorated refund of the whole is a full refund.
export const PLAYER_STORE_EVENTS_SQL = `
  SELECT n.id::int AS id, o.order_no AS "orderNo", n.store, n.type,
         (n.subtype IS NOT DISTINCT FROM 'QUANTITY_BASED_PARTIAL_REFUND'
          OR n.type = 'REFUND' AND n.payload #>> '{data,transactionInfo,revocationType}' IS NOT DISTINCT FROM 'REFUND_PRORATED'
             AND COALESCE((n.payload #>> '{data,transactionInfo,revocationPercentage}')::numeric < 100000, false)) AS partial,
         n.outcome, n.transaction_id AS "transactionId", n.refunded_amount AS "refundedAmount", o.currency,
         n.signed_at AS "signedAt", n.deadline_at AS "deadlineAt",
         count(*) FILTER (WHERE n.type IN ('REFUND', 'VOIDED_PURCHASE') AND n.outcome <> 'unchanged') OVER ()::int AS refunds,
         count(*) FILTER (WHERE n.type = 'REFUND_REVERSED') OVER ()::int AS reversals,
         count(*) OVER ()::int AS total
  FROM orders o
  JOIN store_notifications n ON n.tenant_id = o.tenant_id AND n.order_id = o.id
  WHERE o.tenant_id = $1 AND o.player_id = $2 AND n.type = ANY($3::text[])
  ORDER BY n.signed_at DESC, n.id DESC
  LIMIT $4`;

export async function playerStoreEvents(tenantId: string, playerId: string, db: Queryable = getPool(), limit = PLAYER_STORE_EVENT_LIMIT): Promise<PlayerStoreEvents> {
  const found = await rows(db, eventRow, PLAYER_STORE_EVENTS_SQL, [tenantId, playerId, STORE_EVENT_TYPES, limit]);
  return {
    events: found.map(({ refunds: _r, reversals: _v, total: _t, ...e }) => e),
    total: found[0]?.total ?? 0,
    refunds: found[0]?.refunds ?? 0,
    reversals: found[0]?.reversals ?? 0,
  };
}
