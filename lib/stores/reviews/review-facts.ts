import "server-only";
import { z } from "zod";
import { ACTIVE_STATUSES } from "@/lib/cases/model";
import { rows, type Queryable } from "@/lib/db/sql";
import { lineLedgerSql } from "@/lib/orders/rows";
import { PLAYER_SUMMARY_SQL } from "@/lib/players/queries/player-summary";
import type { ReviewFacts } from "./apple-answer";

const lineRow = z.object({ sku: z.string(), quantity: z.number(), delivered: z.number() });
const moneyRow = z.object({ currency: z.string(), paid: z.number(), refunded: z.number(), firstAt: z.coerce.date() });
const failedRow = z.object({ failed: z.boolean() });

/**
 * What the ledger knows for a review's answer: the order's lines and what was granted for each
 * (positive grants: a reversal after a refund does not undo that the goods were delivered), an open
 * delivery-failed case, and the player's lifetime money in the product (the player page's figures).
 */
export async function reviewFacts(
  db: Queryable,
  review: { readonly tenantId: string; readonly orderId: number | null; readonly playerId: string | null; readonly accountToken: string | null; readonly requestedAt: Date },
): Promise<ReviewFacts> {
  const { tenantId, orderId, playerId } = review;
  // One after another: `db` may be a transaction's single connection.
  const lines =
    orderId === null
      ? []
      : await rows(
          db,
          lineRow,
          // Deliveries only (lineLedgerSql's `granted`): goods given back after a reversed refund are not a second delivery.
          `SELECT l.sku, l.quantity, l.granted AS delivered FROM (${lineLedgerSql("$1", "$2")}) l`,
          [tenantId, orderId],
        );
  const failed =
    orderId === null
      ? []
      : await rows(
          db,
          failedRow,
          `SELECT EXISTS (SELECT 1 FROM order_exceptions WHERE tenant_id = $1 AND order_id = $2 AND kind = 'delivery-failed' AND status = ANY($3::text[])) AS failed`,
          [tenantId, orderId, ACTIVE_STATUSES],
        );
  const money = playerId === null ? [] : await rows(db, moneyRow, PLAYER_SUMMARY_SQL.money, [tenantId, playerId]);
  return {
    lines,
    deliveryFailed: failed[0]?.failed ?? false,
    money: money.map(({ currency, paid, refunded }) => ({ currency, paid, refunded })),
    firstOrderAt: money.length ? new Date(Math.min(...money.map((m) => m.firstAt.getTime()))) : null,
    accountToken: review.accountToken,
    requestedAt: review.requestedAt,
  };
}
