import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { LineKind } from "@/lib/orders/take-back";
import { ORDER_COLUMNS, orderRow } from "@/lib/orders/rows";
import type { OrderSnapshot } from "@/lib/orders/types";

export interface LineSpec {
  readonly sku: string;
  readonly kind: LineKind;
  readonly quantity: number;
}

export interface OrderSpec {
  readonly tenantId: string;
  readonly orderNo?: string;
  readonly playerId?: string;
  readonly amount?: number;
  readonly currency?: string;
  readonly lines?: readonly LineSpec[];
  /** Backdates the order (and its state_at): for stuck and timeout scenarios. */
  readonly createdAt?: Date;
}

/**
 * Creates one order in `created` with its lines, in one statement. Every later state is reached
 * through transit() and grant(), so test orders carry a real history.
 */
export async function createOrder(db: pg.Pool | pg.PoolClient, spec: OrderSpec): Promise<OrderSnapshot> {
  const lines = spec.lines ?? [{ sku: "gems-60", kind: "currency", quantity: 60 }];
  const { rows } = await db.query(
    `WITH o AS (
       INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'created', $6, $6, $6)
       RETURNING ${ORDER_COLUMNS}
     ), l AS (
       INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity)
       SELECT o."tenantId", o.id, x.sku, x.kind, x.quantity FROM o, unnest($7::text[], $8::text[], $9::int[]) AS x(sku, kind, quantity)
     )
     SELECT * FROM o`,
    [
      spec.tenantId,
      spec.orderNo ?? `T${randomUUID().slice(0, 13).replace("-", "")}`,
      spec.playerId ?? `p-${randomUUID().slice(0, 8)}`,
      spec.amount ?? 6_00,
      spec.currency ?? "CNY",
      spec.createdAt ?? new Date(),
      lines.map((l) => l.sku),
      lines.map((l) => l.kind),
      lines.map((l) => l.quantity),
    ],
  );
  return orderRow.parse(rows[0]);
}
