// How orders, transitions and grants are read with raw SQL: each select list beside the schema that
// decodes its rows (lib/db/sql.ts). A column renamed in one and not the other fails a test at once.
import { z } from "zod";
import { prepared } from "@/lib/db/sql";
import { REINSTATE_GRANT_PREFIX } from "./grant-decision";
import { ORDER_EVENTS, ORDER_STATES, SOURCES } from "./machine";
import type { GrantRecord, OrderSnapshot, TransitionRecord } from "./types";

export const ORDER_COLUMNS = `id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version`;

/**
 * The order's row lock every writer of its transitions and grants takes first (transit, grant):
 * prepared (lib/db/sql.ts), by primary key.
 */
export const LOCK_ORDER = prepared("order.lock", `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 FOR UPDATE`);

export const orderRow: z.ZodType<OrderSnapshot, unknown> = z.object({
  id: z.number(),
  tenantId: z.string(),
  orderNo: z.string(),
  playerId: z.string(),
  amount: z.number(),
  currency: z.string(),
  state: z.enum(ORDER_STATES),
  stateAt: z.coerce.date(),
  version: z.number(),
});

export const TRANSITION_COLUMNS = `id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at"`;

export const transitionRow: z.ZodType<TransitionRecord, unknown> = z.object({
  id: z.number(),
  event: z.enum(ORDER_EVENTS),
  from: z.enum(ORDER_STATES),
  to: z.enum(ORDER_STATES),
  bizKey: z.string(),
  actor: z.string(),
  source: z.enum(SOURCES),
  reason: z.string().nullable(),
  at: z.coerce.date(),
});

export const GRANT_COLUMNS = `id, sku, grant_id AS "grantId", quantity, source, actor, reason, created_at AS "at"`;

export const grantRow: z.ZodType<GrantRecord, unknown> = z.object({
  id: z.number(),
  sku: z.string(),
  grantId: z.string(),
  quantity: z.number(),
  source: z.string(),
  actor: z.string(),
  reason: z.string().nullable(),
  at: z.coerce.date(),
});

/**
 * Each line of one order with what the grants ledger holds for it: delivered (positive rows) and
 * taken back by refunds (negative rows, as a positive number, less what a store's reversal of its
 * refund gave back: the positive `reinstate:` rows). The one place this sum is written; `tenant`
 * and `order` are SQL expressions (parameters, or columns of an outer query).
 */
export function lineLedgerSql(tenant: string, order: string): string {
  return `SELECT l.sku, l.kind, l.quantity,
      COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0 AND g.grant_id NOT LIKE '${REINSTATE_GRANT_PREFIX}%'), 0)::int AS granted,
      COALESCE(-SUM(g.quantity) FILTER (WHERE g.quantity < 0 OR g.grant_id LIKE '${REINSTATE_GRANT_PREFIX}%'), 0)::int AS reversed
    FROM order_lines l
    LEFT JOIN grants g ON g.tenant_id = l.tenant_id AND g.order_id = l.order_id AND g.sku = l.sku
    WHERE l.tenant_id = ${tenant} AND l.order_id = ${order}
    GROUP BY l.id, l.sku, l.kind, l.quantity
    ORDER BY l.sku`;
}

export const lineLedgerRow = z.object({
  sku: z.string(),
  kind: z.string(),
  quantity: z.number(),
  granted: z.number(),
  reversed: z.number(),
});
export type LineLedgerRow = z.output<typeof lineLedgerRow>;

/** The tenant's take-back rules (tenant_settings.take_back_rules) — decoded by storedTakeBackRules. */
export function takeBackRulesSql(tenant: string): string {
  return `SELECT take_back_rules FROM tenant_settings WHERE tenant_id = ${tenant}`;
}

/** Per sku of one order, the rule its goods were last taken back by, as a JSON object — what a reversal gives back by. */
export function takenBySql(tenant: string, order: string): string {
  return `SELECT json_object_agg(k.sku, k.rule) FROM (SELECT DISTINCT ON (sku) sku, rule FROM take_backs
     WHERE tenant_id = ${tenant} AND order_id = ${order} AND units < 0 ORDER BY sku, id DESC) k`;
}
