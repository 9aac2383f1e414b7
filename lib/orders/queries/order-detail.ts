import "server-only";
import { getPool } from "@/lib/db/pool";
import type { GrantRecord } from "@/lib/orders/grant";
import { ledgerBySku, orderProgress, type LineProgress } from "@/lib/orders/progress";
import { ORDER_COLUMNS, TRANSITION_COLUMNS, type OrderSnapshot, type TransitionRecord } from "@/lib/orders/types";

export interface OrderLineDetail extends LineProgress {
  readonly kind: string;
  readonly grants: readonly GrantRecord[];
}

export interface OutboxSummary {
  readonly id: number;
  readonly topic: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}

export interface ExceptionSummary {
  readonly id: number;
  readonly kind: string;
  readonly event: string | null;
  readonly bizKey: string;
  readonly amount: number | null;
  readonly status: string;
  readonly detail: Record<string, unknown>;
  readonly createdAt: Date;
}

export interface OrderDetail {
  readonly order: OrderSnapshot;
  readonly lines: readonly OrderLineDetail[];
  /** Newest first. */
  readonly transitions: readonly TransitionRecord[];
  readonly outbox: readonly OutboxSummary[];
  readonly exceptions: readonly ExceptionSummary[];
}

/** Everything the order page shows, in one round trip (each part an index range on the order). */
export async function getOrderDetail(tenantId: string, orderNo: string): Promise<OrderDetail | null> {
  const { rows } = await getPool().query<{
    order: OrderSnapshot | null;
    lines: { sku: string; kind: string; quantity: number }[] | null;
    grants: (GrantRecord & { at: string })[] | null;
    transitions: (TransitionRecord & { at: string })[] | null;
    outbox: (OutboxSummary & { createdAt: string; deliveredAt: string | null })[] | null;
    exceptions: (ExceptionSummary & { createdAt: string })[] | null;
  }>(
    `WITH o AS (SELECT ${ORDER_COLUMNS} FROM orders WHERE tenant_id = $1 AND order_no = $2)
     SELECT
       (SELECT row_to_json(o) FROM o) AS order,
       (SELECT json_agg(json_build_object('sku', sku, 'kind', kind, 'quantity', quantity) ORDER BY sku)
          FROM order_lines WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS lines,
       (SELECT json_agg(json_build_object('id', id, 'sku', sku, 'grantId', grant_id, 'quantity', quantity, 'source', source,
                                          'actor', actor, 'reason', reason, 'at', created_at) ORDER BY id)
          FROM grants WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS grants,
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
  const row = rows[0]!;
  if (!row.order) return null;

  const grants = (row.grants ?? []).map((g) => ({ ...g, at: new Date(g.at) }));
  const lines = row.lines ?? [];
  const progress = orderProgress(lines, ledgerBySku(grants));

  return {
    order: { ...row.order, stateAt: new Date(row.order.stateAt) },
    lines: lines.map((line, i) => ({ ...progress[i]!, kind: line.kind, grants: grants.filter((g) => g.sku === line.sku) })),
    transitions: (row.transitions ?? []).map((t) => ({ ...t, at: new Date(t.at) })),
    outbox: (row.outbox ?? []).map((m) => ({ ...m, createdAt: new Date(m.createdAt), deliveredAt: m.deliveredAt ? new Date(m.deliveredAt) : null })),
    exceptions: (row.exceptions ?? []).map((e) => ({ ...e, createdAt: new Date(e.createdAt) })),
  };
}
