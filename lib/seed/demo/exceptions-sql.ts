// Exceptions: money or facts the ledger refused, filed exactly as the live writers file them — the
// detail is data (a Refusal and the facts around it), never a sentence: transit() for payments and
// guards (lib/orders/decide.ts, unappliedPayment and exceptionFor), the coordinator for failed grant
// calls (lib/jobs/delivery-coordinator.ts, recordFailure).
import { refusal, TERMINAL_STATES, type GuardName, type OrderEvent, type OrderState, type Source } from "@/lib/orders/machine";
import type { Refusal } from "@/lib/problems";
import { backoffSql, COORDINATOR, coordinatorGrantIdSql, deliveryBizKeySql, isoSql } from "./delivery-keys";
import { jsonLit, jsonObject, lit, local, micros, pick, u, us } from "./sql-helpers";

/** exceptionFor()'s detail when a guard rejected the event. */
interface GuardDetail {
  readonly guard: GuardName;
  readonly refusal: Refusal;
  readonly state: OrderState;
  readonly version: number;
  readonly source: Source;
}

/** unappliedPayment()'s detail: money for an order that cannot take it. */
interface UnappliedPaymentDetail {
  readonly refusal: Refusal;
  readonly terminal: boolean;
  readonly state: OrderState;
  readonly version: number;
  readonly source: Source;
}

/** recordFailure()'s detail: the one failure record per order the coordinator's backoff reads. */
interface DeliveryFailureDetail {
  readonly attempts: number;
  readonly lastError: string;
  readonly sku: string;
  readonly grantId: string;
  readonly lastAttemptAt: string;
  readonly nextAttemptAt: string;
}

function illegal(state: OrderState, event: OrderEvent): Refusal {
  const why = refusal(state, event);
  if (!why) throw new Error(`${event} is legal in ${state}: there is no refusal to seed`);
  return why;
}

/** A channel's payment callback for an order in `state` (at `version`) that transit() refused. */
function unappliedPayment(state: OrderState, version: string): string {
  return jsonObject<UnappliedPaymentDetail>({
    refusal: jsonLit(illegal(state, "pay")),
    terminal: String(TERMINAL_STATES.includes(state)),
    state: lit(state),
    version,
    source: lit("callback"),
  });
}

const AMOUNT_MISMATCH = jsonObject<GuardDetail>({
  guard: lit("amount-matches"),
  refusal: jsonObject<Extract<Refusal, { kind: "amount-mismatch" }>>({
    kind: lit("amount-mismatch"),
    paid: "p.amount - 100",
    expected: "p.amount",
    currency: "tn.currency",
  }),
  state: lit("created"),
  version: "0",
  source: lit("callback"),
});

/** The game server confirmed a delivery it had not finished: the lines still pending, per product. */
const DELIVERY_INCOMPLETE = jsonObject<GuardDetail>({
  guard: lit("nothing-pending"),
  refusal: "pr.stall_refusal",
  state: lit("delivering"),
  version: "sc.steps",
  source: "tn.delivery_source",
});

const GRANT_CALL_ERRORS = ["HTTP 503: Service Unavailable", "HTTP 502", "timed out after 10000 ms", "fetch failed (ECONNREFUSED)"];

/** `f` holds attempts and last_at, the failure's count and latest attempt. */
const DELIVERY_FAILED = jsonObject<DeliveryFailureDetail>({
  attempts: "f.attempts",
  lastError: pick(GRANT_CALL_ERRORS, "p.i", 84),
  sku: "pr.stall_sku",
  grantId: coordinatorGrantIdSql("p.order_no", "pr.stall_sku", "'0'"),
  lastAttemptAt: isoSql("f.last_at"),
  nextAttemptAt: isoSql(`f.last_at + ${backoffSql("f.attempts", u("p.i", 85))}`),
});

/** A channel transaction id, as pay's bizKey has it; `suffix` makes a second payment's differ. */
const txn = (at: string, suffix: string): string =>
  `p.channel || '-' || ${local(at, "YYYYMMDDHH24MISS")} || lpad(p.id::text, 10, '0') || '${suffix}'`;

// Cases in every state (issue 13). Money filed more than a day ago has mostly been dealt with:
// refunded at the channel (a confirmed payment_refunds row, REFUNDS_SQL) or dismissed by a
// manager; the rest, and every goods case (its order still sits in delivering), is still being
// worked — some taken by ops, some with a refund the channel failed (their owner must choose
// again), some nobody has picked up yet. The due time comes from the tenant's SLA (the database's
// order_exceptions_sla trigger), so most of the old backlog shows overdue.
const OPS = lit("staff:ops@example.com");
const MANAGER = lit("staff:manager@example.com");
const REFUND_REASONS = ["player asked the channel for the money back", "refunded at the channel: money we could not apply", "duplicate charge refunded"];
const DISMISS_REASONS = ["the channel reversed the payment itself", "test payment from the channel's sandbox", "duplicate notification, no second charge"];

export const EXCEPTIONS_SQL = `
    INSERT INTO order_exceptions (tenant_id, order_id, kind, event, biz_key, amount, actor, detail, status, created_at,
      owner, taken_at, resolution, resolved_reason, resolved_at, resolved_by)
    SELECT x.tenant_id, x.id, x.kind, x.event, x.biz_key, x.amount, x.actor, x.detail,
      CASE WHEN x.fate = 'refunded' THEN 'resolved' WHEN x.fate = 'dismissed' THEN 'dismissed'
           WHEN x.fate IN ('taken', 'refund-failed') THEN 'in-progress' ELSE 'open' END,
      x.at,
      CASE WHEN x.fate = 'dismissed' THEN ${MANAGER} WHEN x.fate <> 'open' THEN ${OPS} END,
      CASE WHEN x.fate <> 'open' THEN x.at + (x.closed_at - x.at) * 0.3 END,
      CASE WHEN x.fate IN ('refunded', 'refund-failed') THEN 'refund' END,
      CASE WHEN x.fate = 'refunded' THEN ${pick(REFUND_REASONS, "x.i", 87)} WHEN x.fate = 'dismissed' THEN ${pick(DISMISS_REASONS, "x.i", 88)} END,
      CASE WHEN x.fate IN ('refunded', 'dismissed') THEN x.closed_at END,
      CASE WHEN x.fate = 'refunded' THEN 'system:cases' WHEN x.fate = 'dismissed' THEN ${MANAGER} END
    FROM (
      SELECT z.*,
        CASE WHEN z.resolved AND ${u("z.i", 86)} < 0.75 THEN 'refunded'
             WHEN z.resolved THEN 'dismissed'
             WHEN z.resolvable AND ${u("z.i", 85)} < 0.15 THEN 'refund-failed'
             WHEN ${u("z.i", 84)} < 0.35 THEN 'taken'
             ELSE 'open' END AS fate,
        -- When it was closed, or (still active) the last moment it could have been taken.
        z.at + ($now::timestamptz - z.at) * (0.2 + 0.6 * ${u("z.i", 79)}) AS closed_at
      FROM (
      SELECT y.*, y.resolvable AND y.at < $now::timestamptz - interval '1 day' AND ${u("y.i", 78)} < 0.6 AS resolved
      FROM (
        SELECT p.i, p.id, p.tenant_id, 'amount-mismatch' AS kind, 'pay' AS event, ${txn("a.at", "-2")} AS biz_key,
          p.amount - 100 AS amount, 'channel:' || p.channel AS actor, a.at, e.pay_at IS NOT NULL AS resolvable,
          ${AMOUNT_MISMATCH} AS detail
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_tenants tn ON tn.t = p.t
        LEFT JOIN seed_ev e ON e.id = p.id
        CROSS JOIN LATERAL (SELECT p.created_at + ${micros(`${u("p.i", 71)} * 0.9 * ${us("coalesce(e.pay_at, $now::timestamptz)", "p.created_at")}`)} AS at) a
        WHERE (sc.code = 'created-stuck' AND (p.showcase OR ${u("p.i", 70)} < 0.3))
           OR (e.pay_at IS NOT NULL AND ((p.showcase AND sc.code = 'paid-stuck') OR ${u("p.i", 70)} < 0.01))
        UNION ALL
        SELECT p.i, p.id, p.tenant_id, 'payment-after-close', 'pay', ${txn("a.at", "")}, p.amount, 'channel:' || p.channel, a.at, true,
          ${unappliedPayment("closed", "1")}
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_ev e ON e.id = p.id
        CROSS JOIN LATERAL (SELECT e.close_at + ${micros(`${u("p.i", 73)} * 0.3 * ${us("$now::timestamptz", "e.close_at")}`)} AS at) a
        WHERE sc.close_via = 'job' AND (p.showcase OR ${u("p.i", 72)} < 0.08)
        UNION ALL
        SELECT p.i, p.id, p.tenant_id, 'second-payment', 'pay', ${txn("a.at", "-2")}, p.amount, 'channel:' || p.channel, a.at, true,
          ${unappliedPayment("paid", "1")}
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_ev e ON e.id = p.id
        CROSS JOIN LATERAL (SELECT e.pay_at + ${micros(`${u("p.i", 75)} * ${us(`coalesce(e.pay_next_at, least(e.pay_at + interval '1 minute', $now::timestamptz))`, "e.pay_at")}`)} AS at) a
        WHERE e.pay_at IS NOT NULL AND ((p.showcase AND sc.code = 'delivered') OR ${u("p.i", 74)} < 0.01)
        UNION ALL
        SELECT p.i, p.id, p.tenant_id, 'payment-after-refund', 'pay', ${txn("a.at", "-2")}, p.amount, 'channel:' || p.channel, a.at, true,
          ${unappliedPayment("refunded", "sc.steps")}
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario
        CROSS JOIN LATERAL (SELECT p.end_at + ${micros(`${u("p.i", 77)} * 0.3 * ${us("$now::timestamptz", "p.end_at")}`)} AS at) a
        WHERE sc.final_state = 'refunded' AND (p.showcase OR ${u("p.i", 76)} < 0.03)
        UNION ALL
        -- A delivery stuck half way: the game server's premature confirm-delivery, or the coordinator's failing grant call.
        SELECT p.i, p.id, p.tenant_id,
          CASE WHEN tn.managed THEN 'delivery-failed' ELSE 'delivery-incomplete' END,
          CASE WHEN tn.managed THEN NULL ELSE 'confirm-delivery' END,
          CASE WHEN tn.managed THEN ${lit(COORDINATOR.failureKey)} ELSE ${deliveryBizKeySql("tn", "p.id")} END,
          NULL, tn.delivery_actor, a.at, false,
          CASE WHEN tn.managed THEN ${DELIVERY_FAILED} ELSE ${DELIVERY_INCOMPLETE} END
        FROM seed_plan p JOIN seed_scenarios sc ON sc.scenario = p.scenario JOIN seed_tenants tn ON tn.t = p.t
        JOIN seed_products pr ON pr.t = p.t AND pr.product = p.product
        CROSS JOIN LATERAL (SELECT p.end_at + ${micros(`(0.5 + 0.5 * ${u("p.i", 81)}) * ${us("$now::timestamptz", "p.end_at")}`)} AS at) a
        CROSS JOIN LATERAL (SELECT 1 + floor(${u("p.i", 82)} * 8)::int AS attempts,
          a.at + ${micros(`${u("p.i", 83)} * ${us("$now::timestamptz", "a.at")}`)} AS last_at) f
        WHERE sc.final_state = 'delivering' AND (p.showcase OR ${u("p.i", 80)} < 0.5)
      ) y
      ) z
    ) x
    ORDER BY x.id, x.kind`;

/**
 * The refunds behind the seeded cases resolved by a refund (confirmed by the channel) and those whose
 * refund the channel failed (the case is back with its owner): one per case, for the whole payment.
 */
export const REFUNDS_SQL = `
    INSERT INTO payment_refunds (tenant_id, refund_id, order_id, case_id, channel, payment_txn, payment_amount, amount, currency, reason,
      status, requested_by, channel_ref, settled_by, created_at, updated_at)
    SELECT e.tenant_id, 'rf-seed-' || e.id, e.order_id, e.id, split_part(e.actor, ':', 2), e.biz_key, e.amount, e.amount, o.currency,
      coalesce(e.resolved_reason, ${pick(REFUND_REASONS, "p.i", 89)}),
      CASE WHEN e.status = 'resolved' THEN 'confirmed' ELSE 'failed' END, ${OPS},
      upper(split_part(e.actor, ':', 2)) || '-RF-' || lpad(e.id::text, 10, '0'), e.actor,
      e.taken_at, coalesce(e.resolved_at, e.taken_at + interval '20 minutes')
    FROM seed_plan p
    JOIN order_exceptions e ON e.order_id = p.id AND e.resolution = 'refund'
    JOIN orders o ON o.id = p.id
    ORDER BY e.id`;
