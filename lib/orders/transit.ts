import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { ConcurrentChange } from "@/lib/db/retry";
import { maybeOne, one, prepared, type PreparedStatement } from "@/lib/db/sql";
import { transaction, type Tx } from "@/lib/db/transaction";
import type { Refusal } from "@/lib/problems";
import { decide, type Decision, type EventInput, type ExceptionDraft, type Facts } from "./decide";
import { ORDER_STATES, type GuardName, type OrderState } from "./machine";
import { lineProgress } from "./progress";
import { storedTakeBackRules, TAKE_BACK_RULES } from "./take-back";
import { recordException } from "./record-exception";
import { lineLedgerRow, lineLedgerSql, LOCK_ORDER, orderRow, takeBackRulesSql, takenBySql, TRANSITION_COLUMNS, transitionRow, type LineLedgerRow } from "./rows";
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
  /** With `{ history: true }`: the order's lines and transitions as this transaction leaves them. */
  readonly history?: OrderHistory | null;
}

/**
 * An order's lines (with their ledger sums) and every transition, oldest first, as they stand when
 * transit's transaction commits: read under its row lock (every writer of transitions and grants
 * holds that lock), plus the transition it wrote.
 */
export interface OrderHistory {
  readonly lines: readonly LineLedgerRow[];
  readonly transitions: readonly TransitionRecord[];
}

export interface TransitOptions {
  /**
   * Also read the order's lines and transitions, in the facts statement it sends anyway (no extra
   * round trip), so a caller that answers with the whole order need not read it again. Null when
   * the transition wrote ledger reversals (confirm-refund): the caller reads those back itself.
   */
  readonly history?: boolean;
}

/**
 * The only way an order changes state. One READ COMMITTED transaction, in DESIGN.md's order: lock
 * the order row; read the facts the decision needs; decide (duplicate, stale, illegal, guard —
 * decide.ts, pure); write the transition, the compare-and-set move and the outbox message as one
 * statement. Five round trips in all (BEGIN, lock, facts, write, COMMIT). A refused payment or a
 * failed guard files an exception afterwards, in its own transaction, so it survives the refusal.
 */
export async function transit(input: TransitInput, pool: pg.Pool = getPool()): Promise<TransitResult> {
  return (await transitWithHistory(input, pool, { history: false })).result;
}

/** transit(), also returning the order's history as it committed (see TransitOptions.history). */
export async function transitWithHistory(
  input: TransitInput,
  pool: pg.Pool = getPool(),
  options: TransitOptions = { history: true },
): Promise<{ readonly result: TransitResult; readonly history: OrderHistory | null }> {
  return run(`transit ${input.event}`, (tx) => transitIn(tx, input, options), pool);
}

/**
 * transitWithHistory() for a caller that finds and locks its order itself, in the transaction's
 * first statement, and only then knows the event it asks for: the API checks the key and locks the
 * order the path names in one round trip (lib/api/keys.ts), and names its actor after the key.
 * `lock` throws to refuse (the transaction rolls back); the facts are read after it, as always.
 */
export async function transitLocking(
  lock: (tx: Tx) => Promise<{ readonly order: OrderSnapshot; readonly input: EventInput }>,
  pool: pg.Pool = getPool(),
): Promise<{ readonly result: TransitResult; readonly history: OrderHistory | null }> {
  return run(
    "transit (order locked by its caller)",
    async (tx) => {
      const { order, input } = await lock(tx);
      return transitLockedIn(tx, order, input, { history: true });
    },
    pool,
  );
}

/** One transit in its own transaction, run again after a concurrent change; its exception filed after the commit. */
async function run(label: string, work: (tx: Tx) => Promise<Transited>, pool: pg.Pool): Promise<{ readonly result: TransitResult; readonly history: OrderHistory | null }> {
  const { result, exception, history } = await transaction(work, { pool, retry: { label, uniqueViolations: true } });
  if (exception) await recordException(exception, pool);
  return { result, history: history ?? null };
}

/**
 * transit()'s steps inside a transaction the caller owns (an approval decided together with its
 * order). The caller files the returned exception after its commit.
 */
export async function transitIn(tx: Tx, input: TransitInput, options: TransitOptions = {}): Promise<Transited> {
  const order = await maybeOne(tx.client, orderRow, LOCK_ORDER, [input.orderId]);
  if (!order) return { result: { result: "not-found" } };
  return transitLockedIn(tx, order, input, options);
}

/** The steps after the lock: read the facts, decide, write. */
async function transitLockedIn(tx: Tx, order: OrderSnapshot, input: EventInput, options: TransitOptions): Promise<Transited> {
  const { facts, history } = await readFacts(tx, order, input, options.history === true);
  const decision = decide(order, input, facts);
  if (decision.outcome === "apply") {
    const [written] = await writeTransitions(tx.client, [decision.effects]);
    if (!written) throw new ConcurrentChange(`transit ${input.event} on order ${order.id}`);
    const after = history && decision.effects.ledger.length === 0 ? { lines: history.lines, transitions: [...history.transitions, written.transition] } : null;
    return { result: { result: "applied", ...written }, ...(options.history ? { history: after } : {}) };
  }
  return { ...refused(order, decision), ...(options.history ? { history } : {}) };
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
  transitions: z.array(transitionRow).nullable(),
  rules: storedTakeBackRules.nullable(),
  takenBy: z.record(z.string(), z.enum(TAKE_BACK_RULES)).nullable(),
});

/** What a facts statement reads besides the duplicate check. */
interface FactsNeeds {
  readonly refundFrom: boolean;
  readonly lines: boolean;
  readonly history: boolean;
  readonly rules: boolean;
}

// The order's transitions are read once, by (tenant_id, order_id) alone, and the duplicate check,
// the refund's origin and the history are taken from them. MATERIALIZED keeps the event and bizKey
// conditions out of that scan: with them, a generic plan (which a prepared statement keeps after
// five runs) once read the duplicate check through (tenant_id, event, created_at) — every pay of the
// tenant. With statistics, the order's own unique key is then the only index that fits; on a table
// never analysed (a new database) a generic plan can still take a tenant-wide one, until autovacuum
// analyses the table and the plan is made again (bench/ANALYSIS.md, issue 28). An order has a
// handful of transitions; a pay on a new one has none.
//
// One statement per combination of needs, each reading only what it is for, rather than one whose
// parts are switched on by parameters: PostgreSQL never moved that one to a generic plan (a custom
// plan with the switches folded away always looked cheaper), so it was planned again on every run
// — two thirds of transit's throughput (bench/ANALYSIS.md, issue 28). All sixteen are made here,
// so the plan test sees each.
function factsText(needs: FactsNeeds): string {
  const read = (needed: boolean, sql: string) => (needed ? `(${sql})` : "NULL");
  return `WITH mine AS MATERIALIZED (SELECT ${TRANSITION_COLUMNS} FROM order_transitions WHERE tenant_id = $1 AND order_id = $2)
   SELECT
       (SELECT row_to_json(m) FROM mine m WHERE m.event = $3 AND m."bizKey" = $4) AS duplicate,
       ${read(needs.refundFrom, `SELECT m."from" FROM mine m WHERE m.event = 'request-refund' ORDER BY m.id DESC LIMIT 1`)} AS "refundFrom",
       ${read(needs.lines || needs.history, `SELECT json_agg(l) FROM (${lineLedgerSql("$1", "$2")}) l`)} AS lines,
       ${read(needs.history, `SELECT json_agg(m ORDER BY m.id) FROM mine m`)} AS transitions,
       ${read(needs.rules, takeBackRulesSql("$1"))} AS rules,
       ${read(needs.rules, takenBySql("$1", "$2"))} AS "takenBy"`;
}

const factsKey = (needs: FactsNeeds) => (Object.keys(needs) as (keyof FactsNeeds)[]).filter((k) => needs[k]).join(",");
const FACTS = new Map(
  Array.from({ length: 16 }, (_, bits) => {
    const needs = { refundFrom: (bits & 1) > 0, lines: (bits & 2) > 0, history: (bits & 4) > 0, rules: (bits & 8) > 0 };
    return [factsKey(needs), prepared(`transit.facts(${factsKey(needs)})`, factsText(needs))] as const;
  }),
);

/** The facts statement for these needs (for the benchmark's copy of it, bench/transit.pgbench.sql). */
export function factsStatement(needs: FactsNeeds): PreparedStatement {
  return FACTS.get(factsKey(needs))!;
}

/**
 * Everything the decision needs beyond the order row, in one statement issued after the lock (so
 * it sees what a concurrent twin committed while we waited; see DESIGN.md step 1) — and, when
 * asked, the order's lines and transitions in the same statement.
 */
async function readFacts(tx: Tx, order: OrderSnapshot, input: EventInput, withHistory: boolean): Promise<{ facts: Facts; history: OrderHistory | null }> {
  const needsRefundFrom = input.event === "reject-refund" || input.event === "reverse-refund";
  const needsRules = input.event === "confirm-refund" || input.event === "reverse-refund";
  const needsLines = input.event === "confirm-delivery" || needsRules;
  const statement = factsStatement({ refundFrom: needsRefundFrom, lines: needsLines, history: withHistory, rules: needsRules });
  const row = await one(tx.client, factsRow, statement, [order.tenantId, order.id, input.event, input.bizKey]);
  return {
    facts: {
      duplicate: row.duplicate,
      refundFrom: row.refundFrom as OrderState | null,
      lines: needsLines ? (row.lines?.map((l) => ({ ...lineProgress(l, l), kind: l.kind })) ?? null) : null,
      rules: row.rules,
      takenBy: row.takenBy,
    },
    history: withHistory ? { lines: row.lines ?? [], transitions: row.transitions ?? [] } : null,
  };
}
