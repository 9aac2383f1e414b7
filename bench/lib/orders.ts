// Bulk test orders for the benchmarks: `created` orders with one line each, in one statement (the
// shape createOrder() in lib/seed/orders.ts makes one at a time), so a benchmark spends its time
// measuring rather than setting up.
import type pg from "pg";

export interface BulkOrders {
  readonly firstId: number;
  readonly lastId: number;
  readonly count: number;
}

export async function insertCreatedOrders(
  db: pg.Pool | pg.PoolClient,
  spec: {
    readonly tenantId: string;
    readonly count: number;
    /** Unique per call within the tenant. */
    readonly orderNoPrefix: string;
    readonly createdAt: Date;
    readonly amount?: number;
  },
): Promise<BulkOrders> {
  const { rows } = await db.query<{ first: number; last: number; n: number }>(
    `WITH o AS (
       INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
       SELECT $1, $2 || lpad(g::text, 8, '0'), 'bench-player-' || (g % 5000), $3, 'CNY', 'created', $4, $4, $4
       FROM generate_series(1, $5::int) AS g
       ORDER BY g
       RETURNING id, tenant_id
     ), l AS (
       INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity)
       SELECT tenant_id, id, 'gems-60', 'currency', 60 FROM o
     )
     SELECT min(id) AS first, max(id) AS last, count(*)::int AS n FROM o`,
    [spec.tenantId, spec.orderNoPrefix, spec.amount ?? 6_00, spec.createdAt, spec.count],
  );
  const row = rows[0]!;
  if (row.n !== spec.count || row.last - row.first + 1 !== spec.count) {
    throw new Error(`expected ${spec.count} consecutive order ids, got ${row.n} in ${row.first}..${row.last}`);
  }
  return { firstId: row.first, lastId: row.last, count: row.n };
}
