import "server-only";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import { logger } from "@/lib/log";
import { withClaimer } from "./claim";
import { callGrantEndpoint, grantRequest, type GrantEndpoint } from "./delivery-call";
import { beginDelivery, confirmDelivery, recordFailure, recordGrant } from "./delivery-record";
import { forEachDueBatch, managedTenants, pendingLines, type Candidate, type Scan } from "./delivery-scan";
import { runConcurrently } from "./run-concurrently";

export { COORDINATOR_BIZ_KEY, DELIVERY_ACTOR } from "./delivery-record";
export type { GrantRequest } from "./delivery-call";

export interface DeliveryOptions {
  /** Orders claimed per batch. */
  readonly batchSize?: number;
  readonly fetch?: typeof globalThis.fetch;
  /** The coordinator's clock (backoff). Default: now. */
  readonly now?: Date;
  /** Per grant-endpoint request. */
  readonly timeoutMs?: number;
  /** Orders worked on at once per batch (each one's lines go one after another). */
  readonly concurrency?: number;
  /** For the backoff's jitter (tests pass a constant). */
  readonly random?: () => number;
  readonly signal?: AbortSignal;
  /**
   * Claims, scans, transit() and grant() run on it. The tenant list and resolving failures go
   * through Prisma, which always uses the process's pool: a pool given here must reach the same
   * database.
   */
  readonly pool?: pg.Pool;
}

export interface DeliveryReport {
  /** paid → delivering. */
  readonly begun: number;
  /** Lines the grant endpoint accepted and the ledger recorded. */
  readonly granted: number;
  /** delivering → delivered. */
  readonly confirmed: number;
  /** Grant calls that failed; the order waits out its backoff. */
  readonly failed: number;
  /** The endpoint granted but the ledger refused (the order moved on): filed for ops. */
  readonly unrecorded: number;
  /** Candidates another worker had claimed, or that moved or came due after the scan. */
  readonly skipped: number;
  /** Work that threw (database trouble); picked up again next run. */
  readonly errors: number;
}

type Counts = { -readonly [K in keyof DeliveryReport]: number };

interface Run {
  readonly pool: pg.Pool;
  readonly fetch: typeof globalThis.fetch;
  readonly now: Date;
  readonly timeoutMs: number;
  readonly random: () => number;
  readonly counts: Counts;
}

const log = logger.child({ job: "delivery-coordinator" });

/**
 * For tenants in `managed` delivery mode: begins delivery of `paid` orders, grants every pending
 * line through the tenant's grant endpoint, records each grant in the ledger, and confirms delivery
 * once nothing is pending. Tenants in `external` mode are never touched: their game server drives.
 *
 * Three steps, one file each: delivery-scan.ts finds and claims the orders, delivery-call.ts calls
 * the endpoint (with a grantId stable across retries), delivery-record.ts writes the outcomes.
 *
 * Orders are claimed per batch (claim.ts), so several workers split them and never call the
 * endpoint for one order at the same time; an order under an ops repair is skipped until it is done.
 */
export async function coordinateDeliveries(options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const pool = options.pool ?? getPool();
  const counts: Counts = { begun: 0, granted: 0, confirmed: 0, failed: 0, unrecorded: 0, skipped: 0, errors: 0 };
  const run: Run = {
    pool,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? new Date(),
    timeoutMs: options.timeoutMs ?? 10_000,
    random: options.random ?? Math.random,
    counts,
  };
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 8;
  const tenants = await managedTenants();

  await withClaimer(pool, async (claimer) => {
    for (const tenant of tenants) {
      if (!tenant.grantEndpointUrl) {
        // Nothing to call: its orders wait in `paid`, where the stuck queue shows them.
        log.warn({ tenantId: tenant.tenantId }, "managed delivery without a grant endpoint URL; skipped");
        continue;
      }
      const endpoint: GrantEndpoint = { url: tenant.grantEndpointUrl, secret: tenant.signingSecret };
      // Paid first: an order begun here is delivered in the same claim, not on the next run.
      for (const state of ["paid", "delivering"] as const) {
        const scan: Scan = { tenantId: tenant.tenantId, state, now: run.now, batchSize, signal: options.signal };
        counts.skipped += await forEachDueBatch(claimer, scan, (orders) =>
          runConcurrently(orders, concurrency, (order) => deliverOne(tenant.tenantId, endpoint, order, run)),
        );
      }
    }
  });
  return counts;
}

/** Begin, grant line by line, confirm. Stops at the first line that fails; the next run goes on from there. */
async function deliverOne(tenantId: string, endpoint: GrantEndpoint, order: Candidate, run: Run): Promise<void> {
  const { counts, pool } = run;
  try {
    if (order.state === "paid") {
      const begun = await beginDelivery(order.id, pool);
      if (begun === "begun") counts.begun++;
      if (begun === "moved-on") return;
    }

    for (const line of await pendingLines(pool, tenantId, order.id)) {
      const request = grantRequest(tenantId, order, line);
      const sent = await callGrantEndpoint(endpoint, request, run);
      if (!sent.ok) {
        counts.failed++;
        await recordFailure({ tenantId, orderId: order.id, failures: order.failures, request, error: sent.error }, run);
        return;
      }
      if ((await recordGrant(tenantId, order.id, request, pool)) === "unrecorded") {
        counts.unrecorded++;
        return;
      }
      counts.granted++;
    }

    if (await confirmDelivery(tenantId, order.id, pool)) counts.confirmed++;
  } catch (error) {
    counts.errors++;
    log.error({ err: error, orderId: order.id, tenantId }, "delivery failed; retried next run");
  }
}
