import "server-only";
import type pg from "pg";
import { getPool, isRetryable, isUniqueViolation } from "@/lib/db/pool";
import { logger } from "@/lib/log";
import { REVERSAL_GRANT_PREFIX } from "./grant";
import { checkGuard, type LineFacts, type Reversal } from "./guards";
import { edgeFor, refusal, TERMINAL_STATES, type GuardName, type OrderEvent, type OrderState, type Source } from "./machine";
import { lineProgress } from "./progress";
import { recordException, type ExceptionInput } from "./record-exception";
import { ORDER_COLUMNS, TRANSITION_COLUMNS, type ExceptionKind, type OrderSnapshot, type TransitionRecord } from "./types";

export interface TransitInput {
  readonly orderId: number;
  readonly event: OrderEvent;
  /** The business fact that makes this event unique (see DESIGN.md); '' when there is none. */
  readonly bizKey: string;
  readonly actor: string;
  readonly source: Source;
  readonly reason?: string | null;
  /** What the channel says was paid, in minor units (pay only). */
  readonly amount?: number;
  /** What the caller saw when it decided; a mismatch is `stale`. */
  readonly expectedState?: OrderState;
  readonly expectedVersion?: number;
}

export type TransitResult =
  | { readonly result: "applied"; readonly order: OrderSnapshot; readonly transition: TransitionRecord }
  | { readonly result: "duplicate"; readonly order: OrderSnapshot; readonly transition: TransitionRecord }
  | { readonly result: "illegal"; readonly order: OrderSnapshot; readonly reason: string }
  | { readonly result: "stale"; readonly order: OrderSnapshot; readonly reason: string }
  | { readonly result: "rejected"; readonly order: OrderSnapshot; readonly guard: GuardName; readonly reason: string }
  | { readonly result: "not-found" };

export type TransitOutcome = TransitResult["result"];

/** Attempts per call: a compare-and-set miss, serialization failure, deadlock or unique race retries. */
export const MAX_ATTEMPTS = 4;

const GUARD_EXCEPTION: Readonly<Record<GuardName, ExceptionKind>> = {
  "amount-matches": "amount-mismatch",
  "nothing-pending": "delivery-incomplete",
  "grants-reversed": "reversal-impossible",
};

/**
 * The only way an order changes state. One READ COMMITTED transaction, in DESIGN.md's order:
 * lock the order row; look for the same (event, bizKey) → duplicate; compare what the caller saw →
 * stale; find the edge → illegal; run the guard → rejected; then insert the transition, update the
 * order with compare-and-set, and insert the outbox message — the last three as one statement.
 *
 * The guard is a pure function of facts read under the lock, so deciding it before the write
 * statement is the same as deciding it after the insert: a refusal writes nothing either way. Five
 * round trips in all (BEGIN, lock, facts, write, COMMIT).
 */
export async function transit(input: TransitInput, pool: pg.Pool = getPool()): Promise<TransitResult> {
  for (let attempt = 1; ; attempt++) {
    let attemptResult: Attempt;
    try {
      attemptResult = await attemptTransit(input, pool);
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && (isRetryable(error) || isUniqueViolation(error))) {
        logger.warn({ err: error, orderId: input.orderId, event: input.event, attempt }, "transit retried");
        continue;
      }
      throw error;
    }
    if (attemptResult.kind === "conflict") {
      if (attempt < MAX_ATTEMPTS) continue;
      throw new Error(`transit ${input.event} on order ${input.orderId}: compare-and-set kept failing`);
    }
    if (attemptResult.exception) await recordException(attemptResult.exception, pool);
    return attemptResult.result;
  }
}

/** A result, with the exception to file for ops after the transaction (never inside it). */
export interface Done {
  readonly kind: "done";
  readonly result: TransitResult;
  readonly exception?: ExceptionInput;
}

type Attempt = Done | { readonly kind: "conflict" };

/** What the decision reads under the lock besides the order row (null where the event needs none). */
export interface Facts {
  readonly duplicate: TransitionRecord | null;
  readonly refundFrom: OrderState | null;
  readonly lines: LineFacts[] | null;
}

interface LineRow {
  readonly sku: string;
  readonly kind: string;
  readonly quantity: number;
  readonly granted: number;
  readonly reversed: number;
}

async function attemptTransit(input: TransitInput, pool: pg.Pool): Promise<Attempt> {
  const client = await pool.connect();
  let committed = false;
  try {
    await client.query("BEGIN");
    const locked = await client.query<OrderSnapshot>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 FOR UPDATE`, [
      input.orderId,
    ]);
    const order = locked.rows[0];
    if (!order) return done({ result: "not-found" });

    const facts = await readFacts(client, order, input);
    const decision = decide(order, input, facts);
    if (decision.kind !== "write") return decision;

    const written = await writeTransition(client, order, input, decision.to, decision.reversals);
    if (!written) return { kind: "conflict" };
    await client.query("COMMIT");
    committed = true;
    return done({ result: "applied", order: written.order, transition: written.transition });
  } finally {
    if (!committed) await client.query("ROLLBACK").catch(() => undefined);
    client.release();
  }
}

function done(result: TransitResult, exception?: ExceptionInput): Done {
  return { kind: "done", result, ...(exception ? { exception } : {}) };
}

/**
 * Everything the decision needs beyond the order row, in one statement issued after the lock (so
 * it sees what a concurrent twin committed while we waited; see DESIGN.md step 1).
 */
async function readFacts(client: pg.PoolClient, order: OrderSnapshot, input: TransitInput): Promise<Facts> {
  const needsRefundFrom = input.event === "reject-refund";
  const needsLines = input.event === "confirm-delivery" || input.event === "confirm-refund";
  const { rows } = await client.query<Omit<Facts, "lines"> & { lines: LineRow[] | null }>(
    `SELECT
       (SELECT row_to_json(t) FROM (SELECT ${TRANSITION_COLUMNS} FROM order_transitions
          WHERE tenant_id = $1 AND order_id = $2 AND event = $3 AND biz_key = $4) t) AS duplicate,
       CASE WHEN $5 THEN (SELECT from_state FROM order_transitions
          WHERE tenant_id = $1 AND order_id = $2 AND event = 'request-refund' ORDER BY id DESC LIMIT 1) END AS "refundFrom",
       CASE WHEN $6 THEN (SELECT json_agg(json_build_object('sku', l.sku, 'kind', l.kind, 'quantity', l.quantity,
            'granted', COALESCE(g.granted, 0), 'reversed', COALESCE(g.reversed, 0)) ORDER BY l.sku)
          FROM order_lines l
          LEFT JOIN (SELECT sku, SUM(quantity) FILTER (WHERE quantity > 0)::int AS granted,
                            -SUM(quantity) FILTER (WHERE quantity < 0)::int AS reversed
                     FROM grants WHERE tenant_id = $1 AND order_id = $2 GROUP BY sku) g ON g.sku = l.sku
          WHERE l.tenant_id = $1 AND l.order_id = $2) END AS lines`,
    [order.tenantId, order.id, input.event, input.bizKey, needsRefundFrom, needsLines],
  );
  const row = rows[0]!;
  return {
    duplicate: row.duplicate ? { ...row.duplicate, at: new Date(row.duplicate.at) } : null,
    refundFrom: row.refundFrom,
    lines: row.lines?.map((l) => ({ ...lineProgress(l, l), kind: l.kind })) ?? null,
  };
}

export type Decision = Done | { readonly kind: "write"; readonly to: OrderState; readonly reversals: readonly Reversal[] };

/** DESIGN.md steps 2, 3 and 5 for one locked order: duplicate, stale, illegal, guard — or write. */
export function decide(order: OrderSnapshot, input: TransitInput, facts: Facts): Decision {
  if (facts.duplicate) return done({ result: "duplicate", order, transition: facts.duplicate });

  const staleness = staleReason(order, input);
  if (staleness) return done({ result: "stale", order, reason: staleness });

  const edge = edgeFor(order.state, input.event);
  if (!edge) {
    const reason = refusal(order.state, input.event);
    return done({ result: "illegal", order, reason }, input.event === "pay" ? unappliedPayment(order, input, reason) : undefined);
  }

  const to = edge.to === "previous" ? facts.refundFrom : edge.to;
  if (!to) throw new Error(`order ${order.id} is refunding but has no request-refund transition`);

  if (!edge.guard) return { kind: "write", to, reversals: [] };
  const verdict = checkGuard(edge.guard, {
    orderAmount: order.amount,
    ...(input.amount !== undefined ? { paidAmount: input.amount } : {}),
    lines: facts.lines ?? [],
  });
  if (verdict.ok) return { kind: "write", to, reversals: verdict.reversals };
  return done(
    { result: "rejected", order, guard: edge.guard, reason: verdict.reason },
    exceptionFor(order, input, GUARD_EXCEPTION[edge.guard], { guard: edge.guard, reason: verdict.reason }),
  );
}

function staleReason(order: OrderSnapshot, input: TransitInput): string | null {
  if (input.expectedState !== undefined && input.expectedState !== order.state) {
    return `expected the order to be ${input.expectedState}, but it is ${order.state}`;
  }
  if (input.expectedVersion !== undefined && input.expectedVersion !== order.version) {
    return `expected version ${input.expectedVersion}, but the order is at version ${order.version}`;
  }
  return null;
}

/** Money arrived for an order that cannot take it: never dropped, always filed for ops. */
function unappliedPayment(order: OrderSnapshot, input: TransitInput, reason: string): ExceptionInput {
  const kind: ExceptionKind =
    order.state === "closed" ? "payment-after-close" : order.state === "refunded" ? "payment-after-refund" : "second-payment";
  return exceptionFor(order, input, kind, { reason, terminal: TERMINAL_STATES.includes(order.state) });
}

function exceptionFor(
  order: OrderSnapshot,
  input: TransitInput,
  kind: ExceptionKind,
  detail: Record<string, unknown>,
): ExceptionInput {
  return {
    tenantId: order.tenantId,
    orderId: order.id,
    kind,
    event: input.event,
    bizKey: input.bizKey,
    ...(input.amount !== undefined ? { amount: input.amount } : {}),
    actor: input.actor,
    detail: { ...detail, state: order.state, version: order.version, source: input.source },
  };
}

/**
 * Inserts the transition, moves the order with compare-and-set, writes the outbox message and, for
 * confirm-refund, the ledger reversals — one statement. Returns null when the compare-and-set
 * matched no row (the transaction is then rolled back and retried).
 */
async function writeTransition(
  client: pg.PoolClient,
  order: OrderSnapshot,
  input: TransitInput,
  to: OrderState,
  reversals: readonly Reversal[],
): Promise<{ order: OrderSnapshot; transition: TransitionRecord } | null> {
  const { rows } = await client.query<{ order: OrderSnapshot | null; transition: TransitionRecord }>(
    `WITH t AS (
       INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${TRANSITION_COLUMNS}
     ), o AS (
       UPDATE orders SET state = $5, state_at = now(), version = version + 1, updated_at = now()
       WHERE id = $2 AND state = $4 AND version = $10
       RETURNING ${ORDER_COLUMNS}
     ), m AS (
       INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
       SELECT o."tenantId", o.id, 'order.transitioned', jsonb_build_object(
         'tenantId', o."tenantId", 'orderNo', o."orderNo", 'event', t.event, 'from', t."from", 'to', t."to",
         'version', o.version, 'bizKey', t."bizKey", 'source', t.source, 'at', t."at")
       FROM o, t
     ), r AS (
       INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason)
       SELECT $1, o.id, x.sku, $14 || $6, x.quantity, $8, $7, x.disposition || ': ' || coalesce($9, 'refund confirmed')
       FROM o, unnest($11::text[], $12::int[], $13::text[]) AS x(sku, quantity, disposition)
     )
     SELECT (SELECT row_to_json(o) FROM o) AS order, row_to_json(t) AS transition FROM t`,
    [
      order.tenantId,
      order.id,
      input.event,
      order.state,
      to,
      input.bizKey,
      input.actor,
      input.source,
      input.reason ?? null,
      order.version,
      reversals.map((r) => r.sku),
      reversals.map((r) => r.quantity),
      reversals.map((r) => r.disposition),
      REVERSAL_GRANT_PREFIX,
    ],
  );
  const row = rows[0]!;
  if (!row.order) return null;
  return {
    order: { ...row.order, stateAt: new Date(row.order.stateAt) },
    transition: { ...row.transition, at: new Date(row.transition.at) },
  };
}
