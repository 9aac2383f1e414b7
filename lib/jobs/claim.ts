import "server-only";
import type pg from "pg";
import { z } from "zod";
import { execute, rows } from "@/lib/db/sql";

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

/** The claim on closing one order for timeout. */
export function timeoutCloseKey(orderId: number): string {
  return `timeout-close:${orderId}`;
}

/**
 * The claim on delivering one order. The same key repair delivery takes (lib/orders/
 * repair-delivery.ts), so an ops repair and the coordinator never work on one order at once.
 */
export function deliveryKey(tenantId: string, orderNo: string): string {
  return `delivery:${tenantId}:${orderNo}`;
}

export interface ClaimItem {
  readonly id: number;
  readonly key: string;
}

export interface Claimer {
  /**
   * Takes the lock on each item that no one else holds and returns those ids, in order. Read the
   * rows again after this (on `client`): only a statement that starts after the lock sees what the
   * previous holder committed before it let go.
   */
  tryLock(items: readonly ClaimItem[]): Promise<number[]>;
  /** Lets go of everything this claimer holds. */
  unlockAll(): Promise<void>;
  /** The claiming connection: scans and re-reads run here, outside any transaction. */
  readonly client: pg.PoolClient;
}

const idRow = z.object({ id: z.number() });

export async function withClaimer<T>(pool: pg.Pool, work: (claimer: Claimer) => Promise<T>): Promise<T> {
  // A pool client, so the pool's listener (lib/db/pool.ts) hears its 'error' event: a connection
  // lost mid-batch fails the statement in flight, the job throws, and the worker loop retries it.
  const client = await pool.connect();
  const claimer: Claimer = {
    client,
    async tryLock(items) {
      if (items.length === 0) return [];
      const locked = await rows(
        client,
        idRow,
        `SELECT id FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS x(id, key, n)
         WHERE pg_try_advisory_lock(hashtextextended(key, 0))
         ORDER BY n`,
        [items.map((i) => i.id), items.map((i) => i.key)],
      );
      return locked.map((r) => r.id);
    },
    async unlockAll() {
      await execute(client, "SELECT pg_advisory_unlock_all()");
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
