// Durations as people type them (a number and a unit) and as tenant_settings stores them (whole
// seconds). Pure: shared by the settings forms and the actions that validate them.
import { z } from "zod";
import { DURATION_UNITS, UNIT_SECONDS } from "@/lib/format";
import { because } from "@/lib/validation";
import { STUCK_STATES, type StuckState } from "@/lib/orders/stuck";

/** The states a "stuck" threshold (max dwell) is set for: the ones an order can be stuck in. */
export const DWELL_STATES = STUCK_STATES;
export type DwellState = StuckState;

export interface DurationBounds {
  readonly min: number;
  readonly max: number;
}

/**
 * Sane limits, in seconds. Below a minute the worker's own polling is the noise; above them the
 * number is almost surely a typo (minutes for seconds) and would hide every stuck order.
 */
export const DWELL_BOUNDS: Readonly<Record<DwellState, DurationBounds>> = {
  created: { min: 60, max: 7 * 86_400 },
  paid: { min: 60, max: 7 * 86_400 },
  delivering: { min: 60, max: 7 * 86_400 },
  // Channels take days to settle a refund.
  refunding: { min: 60 * 60, max: 90 * 86_400 },
};
export const UNPAID_TIMEOUT_BOUNDS: DurationBounds = { min: 60, max: 7 * 86_400 };
/** A case's SLA (issue 13): under 5 minutes nobody can act on it, over 30 days it is no deadline. */
export const CASE_SLA_BOUNDS: DurationBounds = { min: 5 * 60, max: 30 * 86_400 };

/**
 * A duration field: { value, unit } in, whole seconds out. Its problems name the bound as data
 * (seconds), so the message can say "at least 1 minute" in the reader's language.
 */
export function durationInput(bounds: DurationBounds) {
  return z
    .object({
      value: z.coerce.number().int().positive(),
      unit: z.enum(DURATION_UNITS),
    })
    .transform((v) => v.value * UNIT_SECONDS[v.unit])
    .refine((s) => s >= bounds.min, because({ kind: "duration-too-short", seconds: bounds.min }))
    .refine((s) => s <= bounds.max, because({ kind: "duration-too-long", seconds: bounds.max }));
}
