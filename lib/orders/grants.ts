// Grant decisions: whether one grant may be written. Pure; grant.ts runs it under the order lock.
import type { OrderState } from "./machine";

export type GrantOutcome = "applied" | "duplicate" | "invalid-state" | "unknown-sku" | "invalid-quantity" | "over-delivery";

export const GRANTABLE_STATES: readonly OrderState[] = ["paid", "delivering"];

export interface GrantFacts {
  readonly state: OrderState;
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
export function decideGrant(facts: GrantFacts): GrantOutcome {
  if (facts.alreadyGranted) return "duplicate";
  if (!Number.isInteger(facts.quantity) || facts.quantity <= 0) return "invalid-quantity";
  if (!facts.line) return "unknown-sku";
  if (!GRANTABLE_STATES.includes(facts.state)) return "invalid-state";
  if (facts.line.granted + facts.quantity > facts.line.quantity) return "over-delivery";
  return "applied";
}
