// Whether one grant may be written: the grants ledger's rules (DESIGN.md). Pure; grant.ts runs it
// under the order's row lock.
import type { Refusal } from "@/lib/problems";
import type { OrderState } from "./machine";

export type GrantRefusalOutcome = "invalid-state" | "unknown-sku" | "invalid-quantity" | "over-delivery";
export type GrantOutcome = "applied" | "duplicate" | GrantRefusalOutcome;

export type GrantDecision =
  | { readonly outcome: "applied" | "duplicate" }
  | { readonly outcome: GrantRefusalOutcome; readonly refusal: Refusal };

export const GRANTABLE_STATES: readonly OrderState[] = ["paid", "delivering"];

/** Refund reversals are written as `refund:<refund id>`: a client grant may not take such an id. */
export const REVERSAL_GRANT_PREFIX = "refund:";
/**
 * Goods given back when a store reverses its refund are written as `reinstate:<bizKey>`, positive:
 * they cancel the reversal (lineLedgerSql counts them against `reversed`), they are not a delivery.
 */
export const REINSTATE_GRANT_PREFIX = "reinstate:";
export const RESERVED_GRANT_PREFIXES = [REVERSAL_GRANT_PREFIX, REINSTATE_GRANT_PREFIX] as const;

export interface GrantFacts {
  readonly state: OrderState;
  readonly sku: string;
  /** The line for the sku, or undefined when the order has no such line. */
  readonly line?: { readonly quantity: number; readonly granted: number };
  /** A grant with the same (order, sku, grantId) already exists. */
  readonly alreadyGranted: boolean;
  readonly quantity: number;
}

/**
 * The order of checks matters: a replayed grantId is `duplicate` even after the order moved on
 * (the game server retrying a grant it already made must not see an error), and the quantity is
 * checked before the state so a malformed request is reported as such.
 */
export function decideGrant(facts: GrantFacts): GrantDecision {
  if (facts.alreadyGranted) return { outcome: "duplicate" };
  if (!Number.isInteger(facts.quantity) || facts.quantity <= 0) return { outcome: "invalid-quantity", refusal: { kind: "invalid-quantity" } };
  if (!facts.line) return { outcome: "unknown-sku", refusal: { kind: "unknown-sku", sku: facts.sku } };
  if (!GRANTABLE_STATES.includes(facts.state)) return { outcome: "invalid-state", refusal: { kind: "grant-not-allowed", state: facts.state } };
  if (facts.line.granted + facts.quantity > facts.line.quantity) {
    return {
      outcome: "over-delivery",
      refusal: { kind: "over-delivery", sku: facts.sku, quantity: facts.line.quantity, granted: facts.line.granted, requested: facts.quantity },
    };
  }
  return { outcome: "applied" };
}
