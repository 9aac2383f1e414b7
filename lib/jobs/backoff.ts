// Retry delays for the relay and the delivery coordinator. Pure: the caller passes the randomness.

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_CAP_MS = 60 * 60 * 1000;

/**
 * The delay before retry number `failures` + 1: base · 2^(failures − 1), capped, with "equal
 * jitter" — somewhere in the upper half of that — so receivers that come back after an outage are
 * not hit by every retry in the same second, while no retry comes sooner than half the step.
 */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + (step / 2) * random());
}
