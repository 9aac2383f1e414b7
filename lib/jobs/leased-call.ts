import "server-only";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import { backoffMs } from "./backoff";

// What the jobs that claim rows under a lease and call out for each have in common (the outbox
// relay, the take-back calls): their knobs and defaults, and what a failed call leads to.

/** Attempts before a call is given up (the relay's `dead`, a take-back's `failed`). ~4 h of trying. */
export const MAX_CALL_ATTEMPTS = 15;

/** Every knob has a default; tests turn them. */
export interface LeasedCallOptions {
  /** Rows claimed per run. */
  readonly batchSize?: number;
  readonly fetch?: typeof globalThis.fetch;
  /** The job's clock. Default: the database's now(). */
  readonly now?: Date;
  /** How long a claim lasts: a worker that crashes mid-batch frees its rows after this. */
  readonly leaseMs?: number;
  /** Per-request timeout. Keep well under leaseMs. */
  readonly timeoutMs?: number;
  readonly maxAttempts?: number;
  /** Requests in flight per batch. */
  readonly concurrency?: number;
  /** For the backoff's jitter (tests pass a constant). */
  readonly random?: () => number;
  readonly pool?: pg.Pool;
}

/** How long the worker waits for one call to a tenant's endpoint, unless told otherwise. */
export const CALL_TIMEOUT_MS = 10_000;

export type LeasedCallSettings = Required<Omit<LeasedCallOptions, "now">> & { readonly now: Date | undefined };

/** The options with every default filled in; a job names its own batch size and concurrency. */
export function leasedCallSettings(options: LeasedCallOptions, defaults: { readonly batchSize: number; readonly concurrency: number }): LeasedCallSettings {
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  return {
    batchSize: options.batchSize ?? defaults.batchSize,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now,
    leaseMs: options.leaseMs ?? Math.max(60_000, 3 * timeoutMs),
    timeoutMs,
    maxAttempts: options.maxAttempts ?? MAX_CALL_ATTEMPTS,
    concurrency: options.concurrency ?? defaults.concurrency,
    random: options.random ?? Math.random,
    pool: options.pool ?? getPool(),
  };
}

/** After a failed call with `attempts` made before it: the delay before the next, or null when the attempts are used up. */
export function retryAfterFailure(attempts: number, settings: Pick<LeasedCallSettings, "maxAttempts" | "random">): number | null {
  const failures = attempts + 1;
  return failures >= settings.maxAttempts ? null : backoffMs(failures, settings.random);
}
