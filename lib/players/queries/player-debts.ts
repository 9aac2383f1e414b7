import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows, type Queryable } from "@/lib/db/sql";

// What a player owes after refunds taken back under the `negative-balance` rule (issue 16): per sku,
// the units taken back (negative take_backs rows) less the units given back when a store reversed
// its refund (positive rows), with the orders the debt came from. By take_backs_debts_idx
// (tenant_id, player_id) WHERE rule = 'negative-balance', then each order by its primary key.

const debtRow = z.object({
  sku: z.string(),
  kind: z.string(),
  /** Units owed: positive. */
  owed: z.number(),
  orders: z.array(z.object({ orderNo: z.string(), owed: z.number(), at: z.coerce.date() })),
});

export type PlayerDebt = z.output<typeof debtRow>;

/** Only skus (and, under each, orders) whose take-backs do not cancel out: a reversed refund leaves no debt. */
export async function playerDebts(tenantId: string, playerId: string, db: Queryable = getPool()): Promise<PlayerDebt[]> {
  return rows(
    db,
    debtRow,
    `SELECT d.sku, d.kind, sum(d.owed)::int AS owed,
            json_agg(json_build_object('orderNo', o.order_no, 'owed', d.owed, 'at', d.at) ORDER BY d.at DESC, o.order_no) AS orders
     FROM (SELECT order_id, sku, kind, -sum(units)::int AS owed, max(created_at) AS at FROM take_backs
           WHERE tenant_id = $1 AND player_id = $2 AND rule = 'negative-balance'
           GROUP BY order_id, sku, kind HAVING sum(units) <> 0) d
     JOIN orders o ON o.id = d.order_id AND o.tenant_id = $1
     GROUP BY d.sku, d.kind
     HAVING sum(d.owed) <> 0
     ORDER BY d.sku, d.kind`,
    [tenantId, playerId],
  );
}
