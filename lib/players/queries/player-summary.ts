import "server-only";
import { z } from "zod";
import { ACTIVE_STATUSES } from "@/lib/cases/model";
import { getPool } from "@/lib/db/pool";
import { rows, type Queryable } from "@/lib/db/sql";

// What a player has paid and had back over their lifetime in one product, and the exceptions of
// their orders still open: what an agent or a manager reads to spot refund abuse.
//
// The definitions (money per currency, integer minor units):
// - paid: the amount of each of the player's orders whose payment the ledger accepted (it has a
//   `pay` transition; the pay guard holds the paid amount equal to the order's), once per order;
// - refunded: the amount of each of those orders now in `refunded` (refunded through the order's
//   refund flow, every line reversed), plus refunds a payment channel confirmed against an order's
//   accepted payment (payment_refunds, status confirmed, payment_txn = the order's pay bizKey) while
//   the order is not itself refunded, so no money counts twice; plus what a store's partial refunds
//   of the order moved while it kept its state (store_notifications.refunded_amount: Apple's
//   revocationPercentage of the amount, Google's voidedQuantity over the line quantity times the
//   amount, rounded as lib/orders/refund-money.ts says, net of reversals), never more than the
//   order's amount in all. Refunds of payments the ledger never
//   accepted (a payment after close, a second payment, the difference of a mismatch) are in neither
//   figure: that money was never the player's spend, and its cases show among the exceptions;
// - refund rate: refunded ÷ paid, per currency.
// Every read is a range of orders (tenant_id, player_id, created_at) with index lookups per order
// (the pay transition by its unique key, the refunds and the store notifications by (tenant_id,
// order_id), the exceptions by their unique key), as the plan test proves.

export interface PlayerMoney {
  readonly currency: string;
  readonly orders: number;
  readonly paidOrders: number;
  readonly paid: number;
  readonly refundedOrders: number;
  readonly refunded: number;
}

export interface PlayerException {
  readonly id: number;
  readonly orderNo: string;
  readonly kind: string;
  readonly status: string;
  readonly amount: number | null;
  readonly currency: string;
  readonly event: string | null;
  readonly bizKey: string;
  readonly createdAt: Date;
  readonly slaDueAt: Date;
  readonly overdue: boolean;
}

export interface PlayerSummary {
  /** Per currency, the tenant's own first; empty when the player has no orders here. */
  readonly money: readonly PlayerMoney[];
  readonly firstOrderAt: Date | null;
  readonly lastOrderAt: Date | null;
  /** Open and in-progress cases of the player's orders, newest first, at most the limit. */
  readonly exceptions: readonly PlayerException[];
  readonly exceptionCount: number;
}

export const PLAYER_EXCEPTION_LIMIT = 50;

const moneyRow = z.object({
  currency: z.string(),
  orders: z.number(),
  paidOrders: z.number(),
  paid: z.number(),
  refundedOrders: z.number(),
  refunded: z.number(),
  firstAt: z.coerce.date(),
  lastAt: z.coerce.date(),
});

const exceptionRow = z.object({
  id: z.number(),
  orderNo: z.string(),
  kind: z.string(),
  status: z.string(),
  amount: z.number().nullable(),
  currency: z.string(),
  event: z.string().nullable(),
  bizKey: z.string(),
  createdAt: z.coerce.date(),
  slaDueAt: z.coerce.date(),
  overdue: z.boolean(),
  total: z.number(),
});

/**
 * The money rows (currency, orders, paidOrders, paid, refundedOrders, refunded, firstAt, lastAt) of
 * the player `player` in `tenant` — SQL expressions: parameters, or an outer query's columns (the
 * order page reads them in its own query, for the refund watch list).
 */
export function playerMoneySql(tenant: string, player: string): string {
  return `SELECT po.currency,
                 count(*)::int AS orders,
                 count(*) FILTER (WHERE pay.biz_key IS NOT NULL)::int AS "paidOrders",
                 coalesce(sum(po.amount) FILTER (WHERE pay.biz_key IS NOT NULL), 0)::bigint AS paid,
                 count(*) FILTER (WHERE pay.biz_key IS NOT NULL AND (po.state = 'refunded' OR back.amount + store.amount > 0))::int AS "refundedOrders",
                 coalesce(sum(CASE WHEN pay.biz_key IS NULL THEN 0 WHEN po.state = 'refunded' THEN po.amount
                                   ELSE least(po.amount, back.amount + greatest(store.amount, 0)) END), 0)::bigint AS refunded,
                 min(po.created_at) AS "firstAt", max(po.created_at) AS "lastAt"
          FROM orders po
          LEFT JOIN LATERAL (
            SELECT t.biz_key FROM order_transitions t WHERE t.tenant_id = po.tenant_id AND t.order_id = po.id AND t.event = 'pay' LIMIT 1
          ) pay ON true
          LEFT JOIN LATERAL (
            SELECT coalesce(sum(r.amount), 0)::bigint AS amount FROM payment_refunds r
            WHERE r.tenant_id = po.tenant_id AND r.order_id = po.id AND r.status = 'confirmed' AND r.payment_txn = pay.biz_key
          ) back ON true
          LEFT JOIN LATERAL (
            SELECT coalesce(sum(n.refunded_amount), 0)::bigint AS amount FROM store_notifications n
            WHERE n.tenant_id = po.tenant_id AND n.order_id = po.id AND n.refunded_amount IS NOT NULL
          ) store ON true
          WHERE po.tenant_id = ${tenant} AND po.player_id = ${player}
          GROUP BY po.currency`;
}

export const PLAYER_SUMMARY_SQL = {
  money: `${playerMoneySql("$1", "$2")}
          ORDER BY (po.currency = (SELECT currency FROM tenants WHERE id = $1)) DESC, po.currency`,
  exceptions: `SELECT e.id, o.order_no AS "orderNo", e.kind, e.status, e.amount, o.currency, e.event, e.biz_key AS "bizKey",
                      e.created_at AS "createdAt", e.sla_due_at AS "slaDueAt", e.sla_due_at < now() AS overdue,
                      count(*) OVER ()::int AS total
               FROM orders o
               JOIN order_exceptions e ON e.tenant_id = o.tenant_id AND e.order_id = o.id
               WHERE o.tenant_id = $1 AND o.player_id = $2 AND e.status = ANY($3::text[])
               ORDER BY e.created_at DESC, e.id DESC LIMIT $4`,
} as const;

export async function playerSummary(tenantId: string, playerId: string, options: { exceptionLimit?: number; db?: Queryable } = {}): Promise<PlayerSummary> {
  const db = options.db ?? getPool();
  // One after another: on one connection (a read model's snapshot) statements run one at a time anyway.
  const money = await rows(db, moneyRow, PLAYER_SUMMARY_SQL.money, [tenantId, playerId]);
  const exceptions = await rows(db, exceptionRow, PLAYER_SUMMARY_SQL.exceptions, [tenantId, playerId, ACTIVE_STATUSES, options.exceptionLimit ?? PLAYER_EXCEPTION_LIMIT]);
  return {
    money: money.map(({ firstAt: _first, lastAt: _last, ...m }) => m),
    firstOrderAt: money.length ? new Date(Math.min(...money.map((m) => m.firstAt.getTime()))) : null,
    lastOrderAt: money.length ? new Date(Math.max(...money.map((m) => m.lastAt.getTime()))) : null,
    exceptions: exceptions.map(({ total: _total, ...e }) => e),
    exceptionCount: exceptions[0]?.total ?? 0,
  };
}

/** Refunded ÷ paid as a fraction (0 when nothing was paid). The UI formats it; money stays integers. */
export function refundRate(money: Pick<PlayerMoney, "paid" | "refunded">): number {
  return money.paid === 0 ? 0 : money.refunded / money.paid;
}
