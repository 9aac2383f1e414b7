import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { ledgerBySku, orderProgress, type LineProgress } from "@/lib/orders/progress";
import { GRANT_COLUMNS, grantRow, ORDER_COLUMNS, orderRow, TRANSITION_COLUMNS, transitionRow } from "@/lib/orders/rows";
import type { GrantRecord, OrderSnapshot, TransitionRecord } from "@/lib/orders/types";

export interface OrderLineDetail extends LineProgress {
  readonly kind: string;
  readonly grants: readonly GrantRecord[];
}

const outboxRow = z.object({
  id: z.number(),
  topic: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.coerce.date(),
  deliveredAt: z.coerce.date().nullable(),
});
export type OutboxSummary = z.output<typeof outboxRow>;

const exceptionRow = z.object({
  id: z.number(),
  kind: z.string(),
  event: z.string().nullable(),
  bizKey: z.string(),
  amount: z.number().nullable(),
  status: z.string(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.coerce.date(),
});
export type ExceptionSummary = z.output<typeof exceptionRow>;

export interface OrderDetail {
  readonly order: OrderSnapshot;
  readonly lines: readonly OrderLineDetail[];
  /** Newest first. */
  readonly transitions: readonly TransitionRecord[];
  readonly outbox: readonly OutboxSummary[];
  readonly exceptions: readonly ExceptionSummary[];
}

const detailRow = z.object({
  order: orderRow.nullable(),
  lines: z.array(z.object({ sku: z.string(), kind: z.string(), quantity: z.number() })).nullable(),
  grants: z.array(grantRow).nullable(),
  transitions: z.array(transitionRow).nullable(),
  outbox: z.array(outboxRow).nullable(),
  exceptions: z.array(exceptionRow).nullable(),
});

/** Everything the order page shows, in one round trip (each part an index range on the order). */
export async function getOrderDetail(tenantId: string, orderNo: string): Promise<OrderDetail | null> {
  const row = await one(
    getPool(),
    detailRow,
    `WITH o AS (SELECT ${ORDER_COLUMNS} FROM orders WHERE tenant_id = $1 AND order_no = $2)
     SELECT
       (SELECT row_to_json(o) FROM o) AS order,
       (SELECT json_agg(json_build_object('sku', sku, 'kind', kind, 'quantity', quantity) ORDER BY sku)
          FROM order_lines WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS lines,
       (SELECT json_agg(g ORDER BY g.id) FROM (SELECT ${GRANT_COLUMNS} FROM grants
          WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) g) AS grants,
       (SELECT json_agg(t ORDER BY t.id DESC) FROM (SELECT ${TRANSITION_COLUMNS} FROM order_transitions
          WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) t) AS transitions,
       (SELECT json_agg(json_build_object('id', id, 'topic', topic, 'status', status, 'attempts', attempts,
                                          'lastError', last_error, 'createdAt', created_at, 'deliveredAt', delivered_at) ORDER BY id DESC)
          FROM outbox_messages WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS outbox,
       (SELECT json_agg(json_build_object('id', id, 'kind', kind, 'event', event, 'bizKey', biz_key, 'amount', amount,
                                          'status', status, 'detail', detail, 'createdAt', created_at) ORDER BY id DESC)
          FROM order_exceptions WHERE tenant_id = $1 AND order_id = (SELECT id FROM o) AND status = 'open') AS exceptions`,
    [tenantId, orderNo],
  );
  if (!row.order) return null;

  const grants = row.grants ?? [];
  const lines = row.lines ?? [];
  const progress = orderProgress(lines, ledgerBySku(grants));
  return {
    order: row.order,
    lines: lines.map((line, i) => ({ ...progress[i]!, kind: line.kind, grants: grants.filter((g) => g.sku === line.sku) })),
    transitions: row.transitions ?? [],
    outbox: row.outbox ?? [],
    exceptions: row.exceptions ?? [],
  };
}

/** An order's transitions after the version a form was rendered at, newest first: "what changed". */
export async function transitionsSince(tenantId: string, orderId: number, version: number): Promise<TransitionRecord[]> {
  // Each applied transition bumps the version once, so the transitions after the first `version`.
  return rows(
    getPool(),
    transitionRow,
    `SELECT ${TRANSITION_COLUMNS} FROM order_transitions WHERE tenant_id = $1 AND order_id = $2 ORDER BY id OFFSET $3`,
    [tenantId, orderId, version],
  ).then((since) => since.reverse());
}
