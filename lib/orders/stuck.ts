// "Stuck": an order in created, paid, delivering or refunding longer than its product's
// max_dwell_seconds for that state. One rule for every figure and list that says "stuck" — the
// orders list (its flag and filter), the order page's header, the overview, the queues and the
// dashboard (their counts: ./queries/stuck-counts.ts) — so no two of them disagree. Pure.
import { z } from "zod";
import type { OrderState } from "./machine";

/**
 * The states an order should leave by itself, so the only ones a limit is set for (the settings'
 * dwell form) and the only ones an order can be stuck in. A limit written by hand for another state
 * (delivered, say) would make every such order stuck forever: it is no limit.
 */
export const STUCK_STATES = ["created", "paid", "delivering", "refunding"] as const satisfies readonly OrderState[];
export type StuckState = (typeof STUCK_STATES)[number];

export function isStuckState(value: unknown): value is StuckState {
  return typeof value === "string" && (STUCK_STATES as readonly string[]).includes(value);
}

export type DwellThresholds = Readonly<Partial<Record<OrderState, number>>>;

/**
 * One product's max_dwell_seconds as thresholds. Settings are edited by people: a key that is no
 * stuck state, or a value that is not a number of at least one second, is no threshold (the same
 * rule as STUCK_PAIRS in SQL), and settings that are no object at all have none.
 */
export const dwellThresholds = z
  .record(z.string(), z.unknown())
  .catch({})
  .transform((settings): DwellThresholds => {
    const clean: Partial<Record<OrderState, number>> = {};
    for (const [state, seconds] of Object.entries(settings)) {
      if (isStuckState(state) && typeof seconds === "number" && seconds >= 1) clean[state] = Math.floor(seconds);
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
