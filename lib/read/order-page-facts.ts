import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne, type Queryable } from "@/lib/db/sql";
import type { PaymentOrigin } from "@/lib/orders/payment";
import { dwellThresholds, type DwellThresholds } from "@/lib/orders/stuck";
import { storedTakeBackRules, TAKE_BACK_RULES, TAKE_BACK_STATUSES, type TakeBackRules } from "@/lib/orders/take-back";
import { playerMoneySql } from "@/lib/players/queries/player-summary";
import { refundWatch, type RefundWatch } from "@/lib/players/refund-watch";
import { storedCannedReasons, type CannedReasons } from "@/lib/settings/canned-reasons";

/** What the order page shows beside the order's own rows: its product's name and settings, its age. */
export interface OrderPageFacts {
  readonly tenantName: string;
  readonly createdAt: Date;
  /** By the database's clock, like the orders list's "in state" column. */
  readonly secondsInState: number;
  readonly thresholds: DwellThresholds;
  readonly cannedReasons: CannedReasons;
  /** Why the order's player is on the tenant's refund watch list; null when not (or the tenant keeps none). */
  readonly refundWatch: RefundWatch | null;
  /** What a confirmed refund would do to each kind of line's goods: the refund preview. */
  readonly takeBackRules: TakeBackRules;
  /** Whether the tenant has set where `revoke` calls go: without it, they fail. */
  readonly revokeEndpointSet: boolean;
  /** What each refund (or a store's reversal of it) did to the order's goods, oldest first. */
  readonly takeBacks: readonly OrderTakeBack[];
  /** Above this amount (minor units) a console refund waits for a manager; null: the product sets none. */
  readonly refundApprovalAmount: number | null;
  /** An order made to honour a late payment: the order the payment reached first, and who sent it. */
  readonly paymentOrigin: PaymentOrigin | null;
}

const takeBackRow = z.object({
  id: z.number(),
  sku: z.string(),
  kind: z.string(),
  /** Negative: taken back; positive: given back after the store reversed its refund. */
  units: z.number(),
  rule: z.enum(TAKE_BACK_RULES),
  status: z.enum(TAKE_BACK_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.coerce.date(),
});
/** One take_backs row of an order, as the order page lists it. */
export type OrderTakeBack = z.output<typeof takeBackRow>;

const factsRow = z.object({
  tenantName: z.string(),
  createdAt: z.coerce.date(),
  secondsInState: z.number(),
  thresholds: dwellThresholds,
  cannedReasons: storedCannedReasons,
  refundWatchPercent: z.number().nullable(),
  takeBackRules: storedTakeBackRules,
  revokeEndpointSet: z.boolean(),
  playerMoney: z.array(z.object({ currency: z.string(), paid: z.number(), refunded: z.number() })),
  takeBacks: z.array(takeBackRow),
  refundApprovalAmount: z.coerce.number().nullable(),
  paymentOrigin: z.object({ orderNo: z.string(), caseId: z.number(), sentBy: z.string() }).nullable(),
});

/**
 * One primary-key lookup per table (orders by (tenant_id, order_no), tenants, tenant_settings), the
 * order's take-backs (a range of take_backs' unique (tenant_id, order_id, sku, grant_id) index); when
 * the tenant keeps a refund watch list, also the player's money — a range of the player's orders
 * (tenant_id, player_id, created_at), with index lookups per order — in the same statement. For an
 * order that honours a late payment, its case.honoured fact (a range of audit_events'
 * (tenant_id, order_id, id) index) names the case, whose row (primary key) says who sent the payment
 * and to which order.
 */
export async function getOrderPageFacts(tenantId: string, orderNo: string, db: Queryable = getPool()): Promise<OrderPageFacts | null> {
  const row = await maybeOne(
    db,
    factsRow,
    `SELECT t.name AS "tenantName", o.created_at AS "createdAt",
            floor(extract(epoch FROM now() - o.state_at))::int AS "secondsInState",
            coalesce(s.max_dwell_seconds, '{}') AS thresholds, coalesce(s.canned_reasons, '{}') AS "cannedReasons",
            s.refund_watch_percent AS "refundWatchPercent",
            coalesce(s.take_back_rules, '{}') AS "takeBackRules", s.revoke_endpoint_url IS NOT NULL AS "revokeEndpointSet",
            (SELECT coalesce(json_agg(json_build_object('currency', m.currency, 'paid', m.paid, 'refunded', m.refunded)), '[]')
             FROM (${playerMoneySql("o.tenant_id", "o.player_id")}) m WHERE s.refund_watch_percent IS NOT NULL) AS "playerMoney",
            (SELECT coalesce(json_agg(json_build_object('id', k.id, 'sku', k.sku, 'kind', k.kind, 'units', k.units, 'rule', k.rule, 'status', k.status,
                                                        'attempts', k.attempts, 'lastError', k.last_error, 'createdAt', k.created_at) ORDER BY k.id), '[]')
             FROM take_backs k WHERE k.tenant_id = o.tenant_id AND k.order_id = o.id) AS "takeBacks",
            s.refund_approval_amount AS "refundApprovalAmount",
            (SELECT json_build_object('orderNo', f.order_no, 'caseId', e.id, 'sentBy', e.actor)
             FROM audit_events a
             JOIN order_exceptions e ON e.id = (a.detail ->> 'caseId')::bigint AND e.tenant_id = a.tenant_id
             JOIN orders f ON f.id = e.order_id
             WHERE a.tenant_id = o.tenant_id AND a.order_id = o.id AND a.action = 'case.honoured'
             ORDER BY a.id LIMIT 1) AS "paymentOrigin"
     FROM orders o JOIN tenants t ON t.id = o.tenant_id LEFT JOIN tenant_settings s ON s.tenant_id = o.tenant_id
     WHERE o.tenant_id = $1 AND o.order_no = $2`,
    [tenantId, orderNo],
  );
  if (!row) return null;
  const { refundWatchPercent, playerMoney, ...facts } = row;
  return { ...facts, refundWatch: refundWatch(refundWatchPercent, playerMoney) };
}
