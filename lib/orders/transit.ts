import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { ConcurrentChange } from "@/lib/db/retry";
import { maybeOne, one } from "@/lib/db/sql";
import { transaction, type Tx } from "@/lib/db/transaction";
import type { Refusal } from "@/lib/problems";
import { decide, type Decision, type EventInput, type ExceptionDraft, type Facts } from "./decide";
import { ORDER_STATES, type GuardName, type OrderState } from "./machine";
import { lineProgress } from "./progress";
import { recordException } from "./record-exception";
import { lineLedgerRow, lineLedgerSql, ORDER_COLUMNS, orderRow, TRANSITION_COLUMNS, transitionRow } from "./rows";
import type { OrderSnapshot, TransitionRecord } from "./types";
import { writeTransitions } from "./write-transitions";

export interface TransitInput extends EventInput {
  readonly orderId: number;
}

export type TransitResult =
  | { readonly result: "applied"; readonly order: OrderSnapshot; readonly transition: TransitionRecord }
  | { readonly result: "duplicate"; readonly order: OrderSnapshot; readonly transition: TransitionRecord }
  | { readonly result: "illegal"; readonly order: OrderSnapshot; readonly refusal: Refusal }
  | { readonly result: "stale"; readonly order: OrderSnapshot; readonly refusal: Refusal }
  | { readonly result: "rejected"; readonly order: OrderSnapshot; readonly guard: GuardName; readonly refusal: Refusal }
  | { readonly result: "not-found" };

export type TransitOutcome = TransitResult["result"];

/** A result, and the exception to file for ops once the transaction is over (never inside it). */
export interface Transited {
  readonly result: TransitResult;
  readonly exception?: ExceptionDraft;
}

/**
 * The only way an order changes state. One READ COMMITTED transaction, in DESIGN.md's order: lock
 * the order row; read the facts the decision needs; decide (duplicate, stale, illegal, guard —
 * decide.ts, pure); write the transition, the compare-and-set move and the outbox message as one
 * statement. Five round trips in all (BEGIN, lock, facts, write, COMMIT). A refused payment or a
 * failed guard files an exception afterwards, in its own transaction, so it survives the refusal.
 */
export async function transit(input: TransitInput, pool: pg.Pool = getPool()): Promise<TransitResult> {
  const { result, exception } = await transaction((tx) => transitIn(tx, input), {
    pool,
    retry: { label: `transit ${input.event}`, uniqueViolations: true },
  });
  if (exception) await recordException(exception, pool);
  return result;
}

/**
 * transit()'s steps inside a transaction the caller owns (an approval decided together with its
 * order). The caller files the returned exception after its commit.
 */
export async function transitIn(tx: Tx, input: TransitInput): Promise<Transited> {
  const order = await maybeOne(tx.client, orderRow, `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 FOR UPDATE`, [input.orderId]);
  if (!order) return { result: { result: "not-found" } };

  const decision = decide(order, input, await readFacts(tx, order, input));
  if (decision.outcome === "apply") {
    const [written] = await writeTransitions(tx.client, [decision.effects]);
    if (!written) throw new ConcurrentChange(`transit ${input.event} on order ${order.id}`);
    return { result: { result: "applied", ...written } };
  }
  return refused(order, decision);
}

/** A decision that writes nothing, as transit's result (and the exception it files). */
export function refused(order: OrderSnapshot, decision: Exclude<Decision, { outcome: "apply" }>): Transited {
  switch (decision.outcome) {
    case "duplicate":
      return { result: { result: "duplicate", order, transition: decision.transition } };
    case "stale":
      return { result: { result: "stale", order, refusal: decision.refusal } };
    case "illegal":
      return { result: { result: "illegal", order, refusal: decision.refusal }, ...(decision.exception ? { exception: decision.exception } : {}) };
    case "rejected":
      return { result: { result: "rejected", order, guard: decision.guard, refusal: decision.refusal }, exception: decision.exception };
  }
}

const factsRow = z.object({
  duplicate: transitionRow.nullable(),
  refundFrom: z.enum(ORDER_STATES).nullable(),
  lines: z.array(lineLedgerRow).nullable(),
});

/**
 * Everything the decision needs beyond the order row, in one statement issued after the lock (so
 * it sees what a concurrent twin committed while we waited; see DESIGN.md step 1).
 */
async function readFacts(tx: Tx, order: OrderSnapshot, input: TransitInput): Promise<Facts> {
  const needsRefundFrom = input.event === "reject-refund";
  const needsLines = input.event === "confirm-delivery" || input.event === "confirm-refund";
  const row = await one(
    tx.client,
    factsRow,
    `SELECT
       (SELECT row_to_json(t) FROM (SELECT ${TRANSITION_COLUMNS} FROM order_transitions
          WHERE tenant_id = $1 AND order_id = $2 AND event = $3 AND biz_key = $4) t) AS duplicate,
       CASE WHEN $5 THEN (SELECT from_state FROM order_transitions
          WHERE tenant_id = $1 AND order_id = $2 AND event = 'request-refund' ORDER BY id DESC LIMIT 1) END AS "refundFrom",
       CASE WHEN $6 THEN (SELECT json_agg(l) FROM (${lineLedgerSql("$1", "$2")}) l) END AS lines`,
    [order.tenantId, order.id, input.event, input.bizKey, needsRefundFrom, needsLines],
  );
  return {
    duplicate: row.duplicate,
    refundFrom: row.refundFrom as OrderState | null,
    lines: row.lines?.map((l) => ({ ...lineProgress(l, l), kind: l.kind })) ?? null,
  };
}
