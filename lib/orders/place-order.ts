import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne } from "@/lib/db/sql";

export interface NewOrder {
  readonly tenantId: string;
  readonly orderNo: string;
  readonly playerId: string;
  readonly currency: string;
  readonly amount: number;
  readonly lines: readonly { readonly sku: string; readonly kind: string; readonly quantity: number }[];
}

export type PlaceOrderResult =
  | { readonly result: "created" | "existing"; readonly orderId: number }
  | { readonly result: "conflict"; readonly orderId: number; readonly differences: readonly string[] };

const placedRow = z.object({
  id: z.number(),
  created: z.boolean(),
  existing: z
    .object({
      playerId: z.string(),
      amount: z.number(),
      currency: z.string(),
      lines: z.array(z.object({ sku: z.string(), kind: z.string(), quantity: z.number() })).nullable(),
    })
    .nullable(),
});

/**
 * Creates an order with its lines, idempotently by (tenant, orderNo): the same order again is
 * `existing`; the same orderNo with different facts is `conflict`, naming what differs.
 */
export async function placeOrder(input: NewOrder, attempt = 1): Promise<PlaceOrderResult> {
  const lines = [...input.lines].sort((a, b) => a.sku.localeCompare(b.sku));
  const row = await maybeOne(
    getPool(),
    placedRow,
    `WITH o AS (
       INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state)
       VALUES ($1, $2, $3, $4, $5, 'created')
       ON CONFLICT (tenant_id, order_no) DO NOTHING
       RETURNING id
     ), l AS (
       INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity)
       SELECT $1, o.id, x.sku, x.kind, x.quantity FROM o, unnest($6::text[], $7::text[], $8::int[]) AS x(sku, kind, quantity)
     )
     SELECT id, true AS created, NULL::json AS existing FROM o
     UNION ALL
     SELECT e.id, false, json_build_object('playerId', e.player_id, 'amount', e.amount, 'currency', e.currency,
              'lines', (SELECT json_agg(json_build_object('sku', sku, 'kind', kind, 'quantity', quantity) ORDER BY sku)
                        FROM order_lines WHERE tenant_id = e.tenant_id AND order_id = e.id))
     FROM orders e WHERE e.tenant_id = $1 AND e.order_no = $2 AND NOT EXISTS (SELECT 1 FROM o)`,
    [input.tenantId, input.orderNo, input.playerId, input.amount, input.currency, lines.map((l) => l.sku), lines.map((l) => l.kind), lines.map((l) => l.quantity)],
  );
  // A concurrent request inserted it after this statement's snapshot was taken: a retry reads it.
  if (!row) {
    if (attempt >= 3) throw new Error(`order ${input.orderNo} neither inserted nor found`);
    return placeOrder(input, attempt + 1);
  }
  if (row.created) return { result: "created", orderId: row.id };

  const existing = row.existing!;
  const differences: string[] = [];
  if (existing.playerId !== input.playerId) differences.push("playerId");
  if (existing.amount !== input.amount) differences.push("amount");
  if (existing.currency !== input.currency) differences.push("currency");
  const asText = (ls: NewOrder["lines"]) => JSON.stringify(ls.map((l) => [l.sku, l.kind, l.quantity]));
  if (asText(existing.lines ?? []) !== asText(lines)) differences.push("lines");
  return differences.length === 0 ? { result: "existing", orderId: row.id } : { result: "conflict", orderId: row.id, differences };
}
