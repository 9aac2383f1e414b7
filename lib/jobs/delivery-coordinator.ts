import "server-only";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import { logger } from "@/lib/log";
import { grant } from "@/lib/orders/grant";
import { lineProgress } from "@/lib/orders/progress";
import { recordException } from "@/lib/orders/record-exception";
import { transit } from "@/lib/orders/transit";
import { backoffMs } from "./backoff";
import { deliveryKey, withClaimer, type Claimer } from "./claim";
import { runConcurrently } from "./run-concurrently";
import { postSigned } from "./signed-post";

export const DELIVERY_ACTOR = "system:delivery";
/** The bizKey of the coordinator's begin-delivery and confirm-delivery: each happens once per order. */
export const COORDINATOR_BIZ_KEY = "coordinator";

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

/** The body POSTed to a tenant's grant endpoint. A 2xx means: granted (or already granted) in full. */
export interface GrantRequest {
  readonly tenantId: string;
  readonly orderNo: string;
  readonly playerId: string;
  readonly sku: string;
  readonly kind: string;
  readonly quantity: number;
  /** Stable across retries: the game server grants each grantId once and answers 2xx to repeats. */
  readonly grantId: string;
}

interface ManagedTenant {
  readonly tenantId: string;
  readonly grantEndpointUrl: string | null;
  readonly signingSecret: string;
}

interface Candidate {
  readonly id: number;
  readonly state: "paid" | "delivering";
  readonly orderNo: string;
  readonly playerId: string;
  /** Failed attempts so far (the open delivery-failed exception's count). */
  readonly failures: number;
}

interface Context {
  readonly pool: pg.Pool;
  readonly fetch: typeof globalThis.fetch;
  readonly now: Date;
  readonly timeoutMs: number;
  readonly random: () => number;
  readonly counts: Counts;
}

const log = logger.child({ job: "delivery-coordinator" });

// Failed grant calls are remembered in the database, not in a worker's memory: one order_exceptions
// row per order, kind delivery-failed, biz_key 'coordinator', whose detail holds the attempt count
// and when to try next. It doubles as ops' view of the trouble (last error, attempts) while the
// order sits in `delivering` and shows up in the stuck queue; it is resolved when delivery
// completes, and an ops member resolving it by hand resets the backoff (the next run retries).
const FAILURE_KEY = "coordinator";
const DUE = `(e.detail IS NULL OR (e.detail->>'nextAttemptAt')::timestamptz <= $3)`;
const CANDIDATE_COLUMNS = `o.id, o.state, o.order_no AS "orderNo", o.player_id AS "playerId",
  COALESCE((e.detail->>'attempts')::int, 0) AS failures`;
// LATERAL … LIMIT 1: one unique-index probe per scanned order, whatever the statistics say (a plain
// join may be planned as a scan of the tenant's whole exceptions index).
const FAILURE_JOIN = `LEFT JOIN LATERAL (SELECT x.detail FROM order_exceptions x
  WHERE x.tenant_id = o.tenant_id AND x.order_id = o.id AND x.kind = 'delivery-failed' AND x.biz_key = '${FAILURE_KEY}'
    AND x.status = 'open' LIMIT 1) e ON true`;

/**
 * For tenants in `managed` delivery mode: begins delivery of `paid` orders, grants every pending
 * line through the tenant's grant endpoint, records each grant in the ledger, and confirms delivery
 * once nothing is pending. Tenants in `external` mode are never touched: their game server drives.
 *
 * A grant call carries grantId `deliver:<orderNo>:<sku>:<granted so far>`, which stays the same
 * until the ledger records that grant. So a worker that dies after the game server granted but
 * before grant() ran sends the same grantId again, the game server answers "already done", and the
 * ledger catches up: nothing is granted twice on either side.
 *
 * Orders are claimed per batch (claim.ts), so several workers split them and never call the
 * endpoint for one order at the same time; an order under an ops repair is skipped until it is done.
 */
export async function coordinateDeliveries(options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const pool = options.pool ?? getPool();
  const counts: Counts = { begun: 0, granted: 0, confirmed: 0, failed: 0, unrecorded: 0, skipped: 0, errors: 0 };
  const ctx: Context = {
    pool,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? new Date(),
    timeoutMs: options.timeoutMs ?? 10_000,
    random: options.random ?? Math.random,
    counts,
  };
  const batchSize = options.batchSize ?? 50;

  const { rows: tenants } = await pool.query<ManagedTenant>(
    `SELECT tenant_id AS "tenantId", grant_endpoint_url AS "grantEndpointUrl", signing_secret AS "signingSecret"
     FROM tenant_settings WHERE delivery_mode = 'managed' ORDER BY tenant_id`,
  );

  await withClaimer(pool, async (claimer) => {
    for (const tenant of tenants) {
      if (!tenant.grantEndpointUrl) {
        // Nothing to call: its orders wait in `paid`, where the stuck queue shows them.
        log.warn({ tenantId: tenant.tenantId }, "managed delivery without a grant endpoint URL; skipped");
        continue;
      }
      // Paid first: an order begun here is delivered in the same claim, not on the next run.
      for (const state of ["paid", "delivering"] as const) {
        let cursor = 0;
        while (!options.signal?.aborted) {
          const { rows: candidates } = await claimer.client.query<Candidate>(
            `SELECT ${CANDIDATE_COLUMNS} FROM orders o ${FAILURE_JOIN}
             WHERE o.tenant_id = $1 AND o.state = $2 AND o.id > $4 AND ${DUE}
             ORDER BY o.id LIMIT $5`,
            [tenant.tenantId, state, ctx.now, cursor, batchSize],
          );
          if (candidates.length === 0) break;
          cursor = candidates.at(-1)!.id;

          const mine = await claim(claimer, tenant, state, candidates, ctx);
          counts.skipped += candidates.length - mine.length;
          await runConcurrently(mine, options.concurrency ?? 8, (order) => deliverOne(tenant, order, ctx));
          await claimer.unlockAll();
          if (candidates.length < batchSize) break;
        }
      }
    }
  });
  return counts;
}

/** Locks what no other worker holds, then re-reads it: only what is still due is ours to work on. */
async function claim(
  claimer: Claimer,
  tenant: ManagedTenant,
  state: "paid" | "delivering",
  candidates: readonly Candidate[],
  ctx: Context,
): Promise<Candidate[]> {
  const locked = await claimer.tryLock(candidates.map((c) => ({ id: c.id, key: deliveryKey(tenant.tenantId, c.orderNo) })));
  if (locked.length === 0) return [];
  const { rows } = await claimer.client.query<Candidate>(
    `SELECT ${CANDIDATE_COLUMNS} FROM orders o ${FAILURE_JOIN}
     WHERE o.tenant_id = $1 AND o.state = $2 AND o.id = ANY($4::bigint[]) AND ${DUE}
     ORDER BY o.id`,
    [tenant.tenantId, state, ctx.now, locked],
  );
  return rows;
}

async function deliverOne(tenant: ManagedTenant, order: Candidate, ctx: Context): Promise<void> {
  const { counts, pool } = ctx;
  const job = { actor: DELIVERY_ACTOR, source: "job" as const };
  try {
    if (order.state === "paid") {
      const begun = await transit(
        { orderId: order.id, event: "begin-delivery", bizKey: COORDINATOR_BIZ_KEY, expectedState: "paid", ...job },
        pool,
      );
      if (begun.result === "applied") counts.begun++;
      // Refunded or closed meanwhile: nothing to deliver. (Begun by someone else: carry on.)
      if (begun.result === "not-found" || begun.order.state !== "delivering") return;
    }

    for (const line of await readLines(pool, tenant.tenantId, order.id)) {
      if (line.pending === 0) continue;
      const request: GrantRequest = {
        tenantId: tenant.tenantId,
        orderNo: order.orderNo,
        playerId: order.playerId,
        sku: line.sku,
        kind: line.kind,
        quantity: line.pending,
        grantId: `deliver:${order.orderNo}:${line.sku}:${line.granted}`,
      };
      const sent = await postSigned({
        fetch: ctx.fetch,
        url: tenant.grantEndpointUrl!,
        secret: tenant.signingSecret,
        body: JSON.stringify(request),
        timeoutMs: ctx.timeoutMs,
      });
      if (!sent.ok) {
        counts.failed++;
        await recordFailure(tenant, order, request, sent.error, ctx);
        return;
      }
      const granted = await grant(
        { orderId: order.id, sku: line.sku, quantity: line.pending, grantId: request.grantId, ...job, reason: "granted through the grant endpoint" },
        pool,
      );
      if (granted.result === "applied" || granted.result === "duplicate") {
        counts.granted++;
        continue;
      }
      // The game server granted, but the order moved on (a refund was requested, someone else
      // granted the line) and the ledger refused. The player has the goods the ledger lacks: ops
      // must know. If the order comes back to delivering, the same grantId lets the ledger catch up.
      counts.unrecorded++;
      await recordException(
        {
          tenantId: tenant.tenantId,
          orderId: order.id,
          kind: "delivery-failed",
          bizKey: `unrecorded:${request.grantId}`,
          actor: DELIVERY_ACTOR,
          detail: {
            reason: `the grant endpoint granted, but the ledger refused it: ${granted.result}`,
            sku: line.sku,
            quantity: line.pending,
            grantId: request.grantId,
            ...(granted.result !== "not-found" ? { state: granted.order.state } : {}),
          },
        },
        pool,
      );
      return;
    }

    const confirmed = await transit(
      { orderId: order.id, event: "confirm-delivery", bizKey: COORDINATOR_BIZ_KEY, expectedState: "delivering", ...job },
      pool,
    );
    if (confirmed.result === "applied") counts.confirmed++;
    if (confirmed.result === "applied" || confirmed.result === "duplicate") {
      // Delivered: failed attempts are history now. (Not the unrecorded grants: those stay for ops.)
      await pool.query(
        `UPDATE order_exceptions SET status = 'resolved', resolved_at = now(), resolved_by = $3
         WHERE tenant_id = $1 AND order_id = $2 AND kind = 'delivery-failed' AND status = 'open'
           AND biz_key NOT LIKE 'unrecorded:%'`,
        [tenant.tenantId, order.id, DELIVERY_ACTOR],
      );
    }
  } catch (error) {
    counts.errors++;
    log.error({ err: error, orderId: order.id, tenantId: tenant.tenantId }, "delivery failed; retried next run");
  }
}

interface LineRow {
  readonly sku: string;
  readonly kind: string;
  readonly quantity: number;
  readonly granted: number;
}

async function readLines(pool: pg.Pool, tenantId: string, orderId: number) {
  const { rows } = await pool.query<LineRow>(
    `SELECT l.sku, l.kind, l.quantity, COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0), 0)::int AS granted
     FROM order_lines l
     LEFT JOIN grants g ON g.tenant_id = l.tenant_id AND g.order_id = l.order_id AND g.sku = l.sku
     WHERE l.tenant_id = $1 AND l.order_id = $2
     GROUP BY l.id ORDER BY l.sku`,
    [tenantId, orderId],
  );
  return rows.map((row) => ({ ...lineProgress(row, { granted: row.granted, reversed: 0 }), kind: row.kind }));
}

async function recordFailure(tenant: ManagedTenant, order: Candidate, request: GrantRequest, error: string, ctx: Context) {
  const attempts = order.failures + 1;
  const nextAttemptAt = new Date(ctx.now.getTime() + backoffMs(attempts, ctx.random));
  await ctx.pool.query(
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, biz_key, actor, detail)
     VALUES ($1, $2, 'delivery-failed', $3, $4, $5)
     ON CONFLICT (tenant_id, order_id, kind, biz_key) DO UPDATE
     SET detail = EXCLUDED.detail, status = 'open', resolved_at = NULL, resolved_by = NULL`,
    [
      tenant.tenantId,
      order.id,
      FAILURE_KEY,
      DELIVERY_ACTOR,
      JSON.stringify({
        attempts,
        lastError: error,
        sku: request.sku,
        grantId: request.grantId,
        lastAttemptAt: ctx.now.toISOString(),
        nextAttemptAt: nextAttemptAt.toISOString(),
      }),
    ],
  );
  log.warn({ orderId: order.id, tenantId: tenant.tenantId, attempts, error }, "grant call failed; backing off");
}
