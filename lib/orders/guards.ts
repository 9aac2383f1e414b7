// The named guards of the state table: each is the precondition of one edge, decided from facts
// read under the order's row lock. Pure.
import type { Refusal } from "@/lib/problems";
import { assertNever, type GuardName } from "./machine";
import { isFullyDelivered, type LineProgress } from "./progress";

export const LINE_KINDS = ["currency", "stamina", "cosmetic", "item"] as const;
export type LineKind = (typeof LINE_KINDS)[number];

/**
 * What a refund does to what was already granted, per kind (seed 000): consumables are taken back;
 * a cosmetic cannot be taken off a player, so it is written off in the ledger instead.
 */
export type Disposition = "revoke" | "write-off";
export const REFUND_DISPOSITION: Readonly<Record<LineKind, Disposition>> = {
  currency: "revoke",
  stamina: "revoke",
  cosmetic: "write-off",
  item: "write-off",
};

export function isLineKind(value: string): value is LineKind {
  return (LINE_KINDS as readonly string[]).includes(value);
}

export interface LineFacts extends LineProgress {
  readonly kind: string;
}

export interface Reversal {
  readonly sku: string;
  /** Negative: it cancels what was granted on the line. */
  readonly quantity: number;
  readonly disposition: Disposition;
}

export interface GuardFacts {
  readonly orderAmount: number;
  readonly currency: string;
  /** The amount the channel says was paid (pay only). */
  readonly paidAmount?: number;
  readonly lines: readonly LineFacts[];
}

export type GuardVerdict =
  | { readonly ok: true; readonly reversals: readonly Reversal[] }
  | { readonly ok: false; readonly refusal: Refusal };

const pass: GuardVerdict = { ok: true, reversals: [] };

/** The reversals confirm-refund writes: one per line that still holds anything granted. */
export function planReversals(lines: readonly LineFacts[]): { reversals: Reversal[]; unknownKinds: { sku: string; kind: string }[] } {
  const reversals: Reversal[] = [];
  const unknownKinds: { sku: string; kind: string }[] = [];
  for (const line of lines) {
    const held = line.granted - line.reversed;
    if (held <= 0) continue;
    if (!isLineKind(line.kind)) unknownKinds.push({ sku: line.sku, kind: line.kind });
    else reversals.push({ sku: line.sku, quantity: -held, disposition: REFUND_DISPOSITION[line.kind] });
  }
  return { reversals, unknownKinds };
}

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
      const { reversals, unknownKinds } = planReversals(facts.lines);
      if (unknownKinds.length > 0) return { ok: false, refusal: { kind: "no-refund-rule", lines: unknownKinds } };
      return { ok: true, reversals };
    }
    default:
      return assertNever(guard);
  }
}
