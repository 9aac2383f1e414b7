import "server-only";
import type pg from "pg";

// How several workers split order work without a claim column.
//
// `SELECT … FOR UPDATE SKIP LOCKED` is the usual tool, but a row lock lives only as long as its
// transaction, and the work here goes through transit() and grant(), which take the same row lock
// on their own connections: holding the claim transaction open would block them (and on the
// embedded PGlite, which runs one transaction at a time, stall everything). So a worker claims an
// order with a session-level advisory lock instead — the advisory twin of SKIP LOCKED:
// pg_try_advisory_lock never waits, it just says no, and the other worker moves on. The locks sit on
// one dedicated connection for the length of a batch; if the worker dies, PostgreSQL drops them with
// the connection, so a crashed worker's orders come back on the next scan.
//
// Correctness never rests on the claim: transit() and grant() are idempotent on their own. The
// claim is what keeps two workers from doing the same work at once (on PGlite every connection is
// one session, so the locks do not exclude each other there: work may repeat, results do not).

/** Advisory lock classes (the first key of the two-key form); one per kind of claim. */
export const CLAIM_CLASS = {
  timeoutClose: 0x4f4f_0001,
  delivery: 0x4f4f_0002,
} as const;
export type ClaimClass = (typeof CLAIM_CLASS)[keyof typeof CLAIM_CLASS];

export interface Claimer {
  /**
   * Takes the lock on each of `ids` that no other worker holds and returns those, in order. Read
   * the rows again after this (with `query`): only a statement that starts after the lock sees what
   * the previous holder committed before it let go.
   */
  tryLock(ids: readonly number[]): Promise<number[]>;
  /** Lets go of every order this claimer holds. */
  unlockAll(): Promise<void>;
  /** The claiming connection: scans and re-reads run here, outside any transaction. */
  readonly client: pg.PoolClient;
}

export async function withClaimer<T>(pool: pg.Pool, claimClass: ClaimClass, work: (claimer: Claimer) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const claimer: Claimer = {
    client,
    async tryLock(ids) {
      if (ids.length === 0) return [];
      // Ids past 2^31 share a key with a smaller one: the worse case is a skipped order, picked up
      // on the next scan.
      const { rows } = await client.query<{ id: number }>(
        `SELECT id FROM unnest($2::bigint[]) WITH ORDINALITY AS x(id, n)
         WHERE pg_try_advisory_lock($1, (id % 2147483647)::int)
         ORDER BY n`,
        [claimClass, ids],
      );
      return rows.map((r) => r.id);
    },
    async unlockAll() {
      await client.query("SELECT pg_advisory_unlock_all()");
    },
  };
  let broken: Error | undefined;
  try {
    return await work(claimer);
  } finally {
    try {
      await claimer.unlockAll();
    } catch (error) {
      // Destroying the connection drops its locks too.
      broken = error instanceof Error ? error : new Error(String(error));
    }
    client.release(broken);
  }
}
