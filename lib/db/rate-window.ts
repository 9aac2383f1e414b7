import "server-only";
import { z } from "zod";
import { execute, one, type Queryable } from "./sql";

// Fixed-window counters in PostgreSQL (table rate_windows), for limits that must be one budget
// whichever process or machine an event lands on. Web processes keep nothing between requests
// (DESIGN.md, "Scale-out"): a count kept in one process's memory is multiplied by the number of
// processes, and every process writes its own "limit reached" fact.
//
// A window starts with the first event of its key and lasts `seconds`; the first event after it
// ended starts the next one at 1. Counting is one INSERT … ON CONFLICT DO UPDATE: concurrent events
// for one key queue on its row, and each gets its own count back, so exactly one of them sees the
// limit reached. The price is one row update per event, and a row a flood keeps hot.
//
// The clock is the database's unless the caller passes the event's time (tests): every node then
// reads the same clock, and no node's drift can end a window early or stretch it.

/** What is counted. A new limit adds its name here; the key says what within it. */
export type RateScope =
  /** Failed API-key authentications per caller address (lib/api/key-throttle.ts). */
  | "api-key-failures"
  /** Store notification refusals recorded as audit facts, per store and tenant (lib/stores/notifications.ts). */
  | "store-refusals";

export interface RateWindowSpec {
  readonly scope: RateScope;
  readonly key: string;
  /** The window's length. */
  readonly seconds: number;
}

export interface WindowCount {
  /** Events in the current window, this one included: 1 for the event that started it. */
  readonly count: number;
  /** Whole seconds until the window ends (at least 1, at most its length): a Retry-After. */
  readonly secondsLeft: number;
}

const countRow = z.object({ count: z.number(), secondsLeft: z.number() });

// `event.at` is read by every clause so that all of them agree on one instant. secondsLeft is
// capped at the length: a statement that waited on the row for a window another transaction
// started a moment later (now() is each transaction's start) would otherwise see 61 s of a minute.
const COUNT_SQL = `
  WITH event AS (SELECT COALESCE($4::timestamptz, now()) AS at)
  INSERT INTO rate_windows AS w (scope, key, count, ends_at)
  SELECT $1, $2, 1, at + make_interval(secs => $3::int) FROM event
  ON CONFLICT (scope, key) DO UPDATE SET
    count   = CASE WHEN w.ends_at > (SELECT at FROM event) THEN w.count + 1 ELSE 1 END,
    ends_at = CASE WHEN w.ends_at > (SELECT at FROM event) THEN w.ends_at ELSE excluded.ends_at END
  RETURNING w.count,
            LEAST($3::int, ceil(extract(epoch FROM w.ends_at - (SELECT at FROM event)))::int) AS "secondsLeft"`;

/**
 * Counts one event in its key's window and returns the count so far. `db` may be a transaction's
 * client: the count then commits (or rolls back) with what the caller writes beside it, and the
 * row stays locked until then, so concurrent events for the key wait for that decision.
 */
export async function countInWindow(db: Queryable, window: RateWindowSpec, at: Date | null = null): Promise<WindowCount> {
  return one(db, countRow, COUNT_SQL, [window.scope, window.key, window.seconds, at]);
}

/**
 * How long a window that ended is kept before the worker deletes it. Nothing reads an ended window
 * for counting (the next event starts it again either way); the hour keeps the recent past visible
 * to someone looking into a flood, and is far longer than any window.
 */
export const ENDED_WINDOWS_KEPT_SECONDS = 3600;

const SWEEP_SQL = `
  DELETE FROM rate_windows
  WHERE (scope, key) IN (SELECT scope, key FROM rate_windows
                         WHERE ends_at < now() - make_interval(secs => $1::int)
                         LIMIT $2 FOR UPDATE SKIP LOCKED)`;

/**
 * Deletes up to `batchSize` windows that ended more than ENDED_WINDOWS_KEPT_SECONDS ago; returns how
 * many. Each address a flood sprays leaves a row, so without this the table only grows. A row being
 * counted right now is skipped (SKIP LOCKED), never waited for: its count wins, and several workers
 * sweep side by side.
 */
export async function sweepRateWindows(db: Queryable, batchSize = 10_000): Promise<number> {
  return execute(db, SWEEP_SQL, [ENDED_WINDOWS_KEPT_SECONDS, batchSize]);
}
