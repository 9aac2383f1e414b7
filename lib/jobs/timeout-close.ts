import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { rows } from "@/lib/db/sql";
import { logger } from "@/lib/log";
import { assertNever } from "@/lib/orders/machine";
import { unpaidTimeoutReason } from "@/lib/orders/system-reasons";
import type { TransitOutcome } from "@/lib/orders/transit";
import { transitBatch } from "@/lib/orders/transit-batch";
import { timeoutCloseKey, withClaimer } from "./claim";

export interface TimeoutCloseOptions {
  /** The job's clock. Default: now. */
  readonly now?: Date;
  /** Orders claimed and closed per transaction. Each is one advisory lock held until the batch is done. */
  readonly batchSize?: number;
  /** The lower age bound: a job restarted after months must not close years of leftovers. */
  readonly maxAgeDays?: number;
  readonly signal?: AbortSignal;
  /** Claims, scans and the closes run on it; the tenant list comes through Prisma (the process's pool). */
  readonly pool?: pg.Pool;
}

export interface TimeoutCloseReport {
  /** transit applied the close. */
  readonly closed: number;
  /** The order moved (a payment landed) between the scan and the lock: the payment won. */
  readonly stale: number;
  readonly illegal: number;
  readonly duplicate: number;
  readonly rejected: number;
  readonly notFound: number;
  /** The batch failed (database trouble); its orders are still `created` and come back next run. */
  readonly failed: number;
  /** Candidates another worker had claimed, that moved before this worker's lock, or whose row a payment held. */
  readonly skipped: number;
}

type Counts = { -readonly [K in keyof TimeoutCloseReport]: number };

const DAY_MS = 24 * 60 * 60 * 1000;
const idRow = z.object({ id: z.number() });
const candidateRow = z.object({ id: z.number(), createdAt: z.string() });
const log = logger.child({ job: "timeout-close" });

/**
 * Closes `created` orders older than their tenant's unpaid timeout and younger than the lower bound.
 * Per tenant, a keyset scan by (created_at, id) over the (tenant_id, state, created_at, id) index the
 * orders list browses by: equality on the first two columns, the unpaid window and the cursor as one
 * range on the rest, in index order. Each batch is one
 * transitBatch(close) with expectedState `created`: a payment that committed first makes an order
 * `stale`, and an order whose row a payment holds right now is skipped, never waited for.
 *
 * Several workers may run this at once: each claims its batch (see claim.ts) and skips what another
 * holds, so the orders are split between them and no close is attempted twice.
 */
export async function closeExpiredOrders(options: TimeoutCloseOptions = {}): Promise<TimeoutCloseReport> {
  const pool = options.pool ?? getPool();
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 200;
  const maxAgeDays = options.maxAgeDays ?? 30;
  const counts: Counts = { closed: 0, stale: 0, illegal: 0, duplicate: 0, rejected: 0, notFound: 0, failed: 0, skipped: 0 };

  const tenants = await getPrisma().tenantSettings.findMany({
    select: { tenantId: true, unpaidTimeoutSeconds: true },
    orderBy: { tenantId: "asc" },
  });

  await withClaimer(pool, async (claimer) => {
    for (const tenant of tenants) {
      const createdBefore = new Date(now.getTime() - tenant.unpaidTimeoutSeconds * 1000);
      const createdAfter = new Date(now.getTime() - maxAgeDays * DAY_MS);
      if (createdBefore <= createdAfter) continue;

      // Created_at as PostgreSQL's text, microseconds and all: a JS Date would cut it to milliseconds.
      let cursor = { createdAt: createdAfter.toISOString(), id: 0 };
      while (!options.signal?.aborted) {
        const candidates = await rows(
          claimer.client,
          candidateRow,
          `SELECT id, created_at::text AS "createdAt" FROM orders
           WHERE tenant_id = $1 AND state = 'created' AND (created_at, id) > ($2::timestamptz, $3) AND created_at > $4 AND created_at < $5
           ORDER BY created_at, id LIMIT $6`,
          [tenant.tenantId, cursor.createdAt, cursor.id, createdAfter, createdBefore, batchSize],
        );
        if (candidates.length === 0) break;
        cursor = candidates.at(-1)!;

        const locked = await claimer.tryLock(candidates.map((c) => ({ id: c.id, key: timeoutCloseKey(c.id) })));
        // Re-read after locking: a worker that held one of these closed it before letting go.
        const mine = locked.length
          ? await rows(claimer.client, idRow, `SELECT id FROM orders WHERE id = ANY($1::bigint[]) AND state = 'created' ORDER BY id`, [locked])
          : [];
        counts.skipped += candidates.length - mine.length;

        const reason = unpaidTimeoutReason(tenant.unpaidTimeoutSeconds);
        try {
          const { results, busy } = await transitBatch(
            mine.map(({ id }) => ({
              orderId: id,
              event: "close",
              bizKey: "timeout",
              expectedState: "created",
              actor: "system:timeout-close",
              source: "job",
              reason,
            })),
            pool,
          );
          for (const result of results.values()) counts[countKey(result.result)]++;
          counts.skipped += busy.length;
        } catch (error) {
          counts.failed += mine.length;
          log.error({ err: error, orders: mine.length, tenantId: tenant.tenantId }, "timeout close batch failed; retried next run");
        }
        await claimer.unlockAll();
        if (candidates.length < batchSize) break;
      }
    }
  });
  return counts;
}

function countKey(outcome: TransitOutcome): keyof Counts {
  switch (outcome) {
    case "applied":
      return "closed";
    case "not-found":
      return "notFound";
    case "duplicate":
    case "illegal":
    case "stale":
    case "rejected":
      return outcome;
    default:
      return assertNever(outcome);
  }
}
