// "Stuck": an order in its state longer than its product's max_dwell_seconds for that state. One
// rule for the orders list (its flag and filter) and the order page's header, so the two never
// disagree about the same order. Pure.
import { z } from "zod";
import { isOrderState, type OrderState } from "./machine";

export type DwellThresholds = Readonly<Partial<Record<OrderState, number>>>;

/**
 * One product's max_dwell_seconds as thresholds. Settings are edited by people: a key that is no
 * state, or a value that is not a number of at least one second, is no threshold (the same rule as
 * the queues), and settings that are no object at all have none.
 */
export const dwellThresholds = z
  .record(z.string(), z.unknown())
  .catch({})
  .transform((settings): DwellThresholds => {
    const clean: Partial<Record<OrderState, number>> = {};
    for (const [state, seconds] of Object.entries(settings)) {
      if (isOrderState(state) && typeof seconds === "number" && seconds >= 1) clean[state] = Math.floor(seconds);
    }
    return clean;
  });

/** Past the threshold, not at it: an order exactly at its limit is still on time. */
export function isStuck(secondsInState: number, maxDwellSeconds: number | null): boolean {
  return maxDwellSeconds !== null && secondsInState > maxDwellSeconds;
}

export interface Dwell {
  readonly secondsInState: number;
  /** The product's limit for the state, when it has one. */
  readonly maxDwellSeconds: number | null;
  readonly stuck: boolean;
}

/** How long an order has been in its state against its product's limit for that state. */
export function dwellOf(state: OrderState, secondsInState: number, thresholds: DwellThresholds): Dwell {
  const maxDwellSeconds = thresholds[state] ?? null;
  return { secondsInState, maxDwellSeconds, stuck: isStuck(secondsInState, maxDwellSeconds) };
}
