// The named guards of the state table: each is the precondition of one edge, decided from facts
// read under the order's row lock. Pure.
import type { Refusal } from "@/lib/problems";
import { assertNever, type GuardName } from "./machine";
import { isFullyDelivered, type LineProgress } from "./progress";
import { DEFAULT_TAKE_BACK_RULES, planRestore, planTakeBack, type LedgerMove, type TakeBackRule, type TakeBackRules } from "./take-back";

export interface LineFacts extends LineProgress {
  readonly kind: string;
}

export interface GuardFacts {
  readonly orderAmount: number;
  readonly currency: string;
  /** The amount the channel says was paid (pay only). */
  readonly paidAmount?: number;
  readonly lines: readonly LineFacts[];
  /** The tenant's take-back rule per kind of line (confirm-refund, reverse-refund). */
  readonly rules?: TakeBackRules;
  /** Per sku, the rule its goods were last taken back by (reverse-refund gives back the same way). */
  readonly takenBy?: Readonly<Record<string, TakeBackRule>>;
}

export type GuardVerdict =
  | { readonly ok: true; readonly moves: readonly LedgerMove[] }
  | { readonly ok: false; readonly refusal: Refusal };

const pass: GuardVerdict = { ok: true, moves: [] };

export function checkGuard(guard: GuardName, facts: GuardFacts): GuardVerdict {
  switch (guard) {
    case "amount-matches":
      if (facts.paidAmount === undefined) return { ok: false, refusal: { kind: "amount-missing" } };
      if (facts.paidAmount !== facts.orderAmount) {
        return { ok: false, refusal: { kind: "amount-mismatch", paid: facts.paidAmount, expected: facts.orderAmount, currency: facts.currency } };
      }
      return pass;
    case "nothing-pending": {
      if (isFullyDelivered(facts.lines)) return pass;
      const lines = facts.lines.filter((l) => l.pending > 0).map((l) => ({ sku: l.sku, granted: l.granted, expected: l.expected }));
      return { ok: false, refusal: { kind: "lines-pending", lines } };
    }
    case "grants-reversed": {
      const { moves, unknownKinds } = planTakeBack(facts.lines, facts.rules ?? DEFAULT_TAKE_BACK_RULES);
      if (unknownKinds.length > 0) return { ok: false, refusal: { kind: "no-refund-rule", lines: unknownKinds } };
      return { ok: true, moves };
    }
    case "grants-restored":
      return { ok: true, moves: planRestore(facts.lines, facts.takenBy ?? {}, facts.rules ?? DEFAULT_TAKE_BACK_RULES) };
    default:
      return assertNever(guard);
  }
}
