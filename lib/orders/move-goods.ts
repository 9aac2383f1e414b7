import "server-only";
import { z } from "zod";
import { one } from "@/lib/db/sql";
import type { Tx } from "@/lib/db/transaction";
import { REINSTATE_GRANT_PREFIX, REVERSAL_GRANT_PREFIX } from "./grant-decision";
import type { Source } from "./machine";
import { lineProgress } from "./progress";
import { lineLedgerRow, lineLedgerSql, takeBackRulesSql, takenBySql } from "./rows";
import { DEFAULT_TAKE_BACK_RULES, held, planRestore, planTakeBack, storedTakeBackRules, TAKE_BACK_RULES, takesEverything, type LedgerMove, type RefundMeasure } from "./take-back";
import type { OrderSnapshot } from "./types";
import { writeLedger } from "./write-ledger";

/**
 * Goods moved without the order changing state: part of a store order refunded (the order stays
 * delivered, the refunded units are taken back), or that part given back when the store reverses
 * its refund. A full refund and its reversal go through transit() (confirm-refund, reverse-refund),
 * whose guards write the same ledger rows through the same writer.
 */
export type GoodsMove = { readonly kind: "take-back"; readonly measure: RefundMeasure } | { readonly kind: "give-back" };

export type GoodsMoveResult =
  | { readonly result: "applied"; readonly moves: readonly LedgerMove[] }
  /** This fact's rows are in the ledger already: nothing written twice. */
  | { readonly result: "duplicate" }
  /** Nothing is held to take, or nothing was taken to give back. */
  | { readonly result: "nothing" }
  /** A partial refund that would leave nothing on any line: nothing written; it is a full refund, for transit(). */
  | { readonly result: "everything" }
  | { readonly result: "no-refund-rule"; readonly lines: readonly { sku: string; kind: string }[] };

const factsRow = z.object({
  lines: z.array(lineLedgerRow),
  rules: storedTakeBackRules.nullable(),
  takenBy: z.record(z.string(), z.enum(TAKE_BACK_RULES)).nullable(),
  written: z.boolean(),
});

/**
 * Takes back or gives back goods of one order under the tenant's rules, in the caller's transaction,
 * which must hold the order's row lock (every writer of grants holds it). One fact, one grant id
 * (`refund:` or `reinstate:` + bizKey): a fact seen again finds its rows and writes nothing.
 */
export async function moveGoods(
  tx: Tx,
  order: Pick<OrderSnapshot, "id" | "tenantId" | "playerId">,
  move: GoodsMove,
  input: { readonly bizKey: string; readonly actor: string; readonly source: Source; readonly reason: string },
): Promise<GoodsMoveResult> {
  const grantId = `${move.kind === "take-back" ? REVERSAL_GRANT_PREFIX : REINSTATE_GRANT_PREFIX}${input.bizKey}`;
  const facts = await one(
    tx.client,
    factsRow,
    `SELECT (SELECT coalesce(json_agg(l), '[]') FROM (${lineLedgerSql("$1", "$2")}) l) AS lines,
            (${takeBackRulesSql("$1")}) AS rules,
            (${takenBySql("$1", "$2")}) AS "takenBy",
            EXISTS (SELECT 1 FROM grants WHERE tenant_id = $1 AND order_id = $2 AND grant_id = $3) AS written`,
    [order.tenantId, order.id, grantId],
  );
  if (facts.written) return { result: "duplicate" };
  const lines = facts.lines.map((l) => ({ ...lineProgress(l, l), kind: l.kind }));
  const rules = facts.rules ?? DEFAULT_TAKE_BACK_RULES;
  let moves: LedgerMove[];
  if (move.kind === "take-back") {
    if (lines.some((l) => held(l) > 0) && takesEverything(lines, move.measure)) return { result: "everything" };
    const plan = planTakeBack(lines, rules, move.measure);
    if (plan.unknownKinds.length > 0) return { result: "no-refund-rule", lines: plan.unknownKinds };
    moves = plan.moves;
  } else {
    moves = planRestore(lines, facts.takenBy ?? {}, rules);
  }
  if (moves.length === 0) return { result: "nothing" };
  await writeLedger(
    tx.client,
    moves.map((m) => ({ ...m, grantId, order, actor: input.actor, source: input.source, reason: input.reason })),
  );
  return { result: "applied", moves };
}
