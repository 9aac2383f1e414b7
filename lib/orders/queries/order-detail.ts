import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows, type Queryable } from "@/lib/db/sql";
import { ledgerBySku, orderProgress, type LineProgress } from "@/lib/orders/progress";
import { GRANT_COLUMNS, grantRow, ORDER_COLUMNS, orderRow, TRANSITION_COLUMNS, transitionRow } from "@/lib/orders/rows";
import type { ApprovalRecord, NoteRecord, OrderAuditFact, TimelineSources } from "@/lib/orders/timeline";
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
  actor: z.string(),
  createdAt: z.coerce.date(),
  resolvedAt: z.coerce.date().nullable(),
  resolvedBy: z.string().nullable(),
});
export type ExceptionSummary = z.output<typeof exceptionRow>;

const approvalRow: z.ZodType<ApprovalRecord, unknown> = z.object({
  id: z.number(),
  requestedBy: z.string(),
  reason: z.string(),
  amount: z.number(),
  status: z.string(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  decidedAt: z.coerce.date().nullable(),
  createdAt: z.coerce.date(),
});

const noteRow: z.ZodType<NoteRecord, unknown> = z.object({ id: z.number(), author: z.string(), body: z.string(), correctsId: z.number().nullable(), at: z.coerce.date() });

const auditFactRow: z.ZodType<OrderAuditFact, unknown> = z.object({
  id: z.number(),
  action: z.string(),
  actor: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: z.coerce.date(),
});

/** The order page's data; what the timeline merges (lib/orders/timeline.ts) among it. */
export interface OrderDetail extends TimelineSources {
  readonly order: OrderSnapshot;
  readonly lines: readonly OrderLineDetail[];
  /** Newest first. */
  readonly transitions: readonly TransitionRecord[];
  /** Every grant of the order, oldest first (each line also has its own). */
  readonly grants: readonly GrantRecord[];
  readonly outbox: readonly OutboxSummary[];
  /** The open ones: the page's inbox panel. */
  readonly exceptions: readonly ExceptionSummary[];
  /** Every exception ever filed on the order, open and resolved, newest first. */
  readonly allExceptions: readonly ExceptionSummary[];
}

const detailRow = z.object({
  order: orderRow.nullable(),
  lines: z.array(z.object({ sku: z.string(), kind: z.string(), quantity: z.number() })).nullable(),
  grants: z.array(grantRow).nullable(),
  transitions: z.array(transitionRow).nullable(),
  outbox: z.array(outboxRow).nullable(),
  exceptions: z.array(exceptionRow).nullable(),
  approvals: z.array(approvalRow).nullable(),
  notes: z.array(noteRow).nullable(),
  auditFacts: z.array(auditFactRow).nullable(),
});

/**
 * Everything the order page shows, in one round trip (each part an index range on the order: its
 * lines, grants, transitions, outbox messages, exceptions, refund approvals, notes, and the
 * audit_events rows that name it).
 */
export async function getOrderDetail(tenantId: string, orderNo: string, db: Queryable = getPool()): Promise<OrderDetail | null> {
  const row = await one(
    db,
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
                                          'status', status, 'detail', detail, 'actor', actor, 'createdAt', created_at,
                                          'resolvedAt', resolved_at, 'resolvedBy', resolved_by) ORDER BY id DESC)
          FROM order_exceptions WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS exceptions,
       (SELECT json_agg(json_build_object('id', id, 'requestedBy', requested_by, 'reason', reason, 'amount', amount, 'status', status,
                                          'decidedBy', decided_by, 'decisionReason', decision_reason, 'decidedAt', decided_at,
                                          'createdAt', created_at) ORDER BY id)
          FROM refund_approvals WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS approvals,
       (SELECT json_agg(json_build_object('id', id, 'author', author, 'body', body, 'correctsId', corrects_id, 'at', created_at) ORDER BY id)
          FROM order_notes WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS notes,
       (SELECT json_agg(json_build_object('id', id, 'action', action, 'actor', actor, 'target', target, 'detail', detail, 'at', created_at) ORDER BY id)
          FROM audit_events WHERE tenant_id = $1 AND order_id = (SELECT id FROM o)) AS "auditFacts"`,
    [tenantId, orderNo],
  );
  if (!row.order) return null;

  const grants = row.grants ?? [];
  const lines = row.lines ?? [];
  const progress = orderProgress(lines, ledgerBySku(grants));
  const allExceptions = row.exceptions ?? [];
  return {
    order: row.order,
    lines: lines.map((line, i) => ({ ...progress[i]!, kind: line.kind, grants: grants.filter((g) => g.sku === line.sku) })),
    transitions: row.transitions ?? [],
    grants,
    outbox: row.outbox ?? [],
    exceptions: allExceptions.filter((e) => e.status === "open"),
    allExceptions,
    approvals: row.approvals ?? [],
    notes: row.notes ?? [],
    auditFacts: row.auditFacts ?? [],
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
