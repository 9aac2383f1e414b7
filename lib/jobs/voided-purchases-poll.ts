import "server-only";
import type pg from "pg";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { execute, maybeOne } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { logger } from "@/lib/log";
import { configuredServiceAccount, serviceAccountTokens, type AccessTokenProvider } from "@/lib/stores/google/access-token";
import { polledVoid, STORE } from "@/lib/stores/google/model";
import { applyVoid } from "@/lib/stores/google/receive-notification";
import { listVoidedPurchases, VOIDED_RETENTION_MS } from "@/lib/stores/google/voided-purchases";

// The Voided Purchases poll (issue 16): for each tenant connected to Google Play, read the voids
// since its cursor and put each through the same path a push takes (applyVoid) — so a void whose
// push was lost is still refunded, and one the push already refunded is stored as a fact and changes
// nothing. A worker claims a tenant that is due (FOR UPDATE SKIP LOCKED), so any number of workers
// poll each tenant once per interval; the cursor moves, with its audit fact, only after every void
// read was stored.

export const POLL_ACTOR = "system:voided-purchases-poll";
/** How often each tenant is polled. Google allows a few thousand calls a day per app. */
export const POLL_INTERVAL_MS = 15 * 60_000;
/**
 * Each run reads again from this long before the newest void it saw: Google lists a void some time
 * after its voidedTime, and one listed late would otherwise fall behind the cursor for good. What is
 * read twice is a duplicate (its id is orderId and voidedTime) and costs nothing.
 */
export const POLL_OVERLAP_MS = 24 * 3_600_000;

export interface VoidedPollReport {
  /** Tenants polled this run. */
  readonly tenants: number;
  readonly voids: number;
  /** Voids stored for the first time (the others were duplicates of what was read before). */
  readonly stored: number;
  /** Tenants whose poll failed (the cursor stays; the next run tries again). */
  readonly failed: number;
}

export interface VoidedPollOptions {
  readonly pool?: pg.Pool;
  readonly fetch?: typeof globalThis.fetch;
  /** Default GOOGLE_PLAY_API_BASE_URL, else Google's. */
  readonly baseUrl?: string;
  /** Default: the deployment's service account (access-token.ts); none configured, nothing is polled. */
  readonly accessToken?: AccessTokenProvider | null;
  readonly now?: () => Date;
  readonly intervalMs?: number;
}

const claimRow = z.object({ tenantId: z.string(), packageName: z.string(), cursorAt: z.coerce.date().nullable() });

let deploymentTokens: AccessTokenProvider | null | undefined;

function defaultTokens(fetch: typeof globalThis.fetch): AccessTokenProvider | null {
  if (deploymentTokens === undefined) {
    const key = configuredServiceAccount();
    deploymentTokens = key ? serviceAccountTokens(key, fetch) : null;
  }
  return deploymentTokens;
}

export async function pollVoidedPurchases(options: VoidedPollOptions = {}): Promise<VoidedPollReport> {
  const pool = options.pool ?? getPool();
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const baseUrl = options.baseUrl ?? process.env.GOOGLE_PLAY_API_BASE_URL ?? "https://androidpublisher.googleapis.com";
  const intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;

  // Every connected tenant has a cursor row to claim (one that disconnected keeps its row, unpolled).
  await execute(
    pool,
    `INSERT INTO store_poll_cursors (tenant_id, store) SELECT tenant_id, $1 FROM tenant_settings WHERE google_package_name IS NOT NULL
     ON CONFLICT (tenant_id, store) DO NOTHING`,
    [STORE],
  );
  const tokens = options.accessToken === undefined ? defaultTokens(fetch) : options.accessToken;
  if (!tokens) return { tenants: 0, voids: 0, stored: 0, failed: 0 };

  let tenants = 0;
  let voids = 0;
  let stored = 0;
  let failed = 0;
  for (;;) {
    const at = now();
    const claimed = await maybeOne(
      pool,
      claimRow,
      `UPDATE store_poll_cursors c SET polled_at = $2, updated_at = clock_timestamp()
       FROM (SELECT c2.tenant_id, s.google_package_name FROM store_poll_cursors c2 JOIN tenant_settings s ON s.tenant_id = c2.tenant_id
             WHERE c2.store = $1 AND s.google_package_name IS NOT NULL AND (c2.polled_at IS NULL OR c2.polled_at <= $3)
             ORDER BY c2.polled_at NULLS FIRST, c2.tenant_id LIMIT 1 FOR UPDATE OF c2 SKIP LOCKED) due
       WHERE c.tenant_id = due.tenant_id AND c.store = $1
       RETURNING c.tenant_id AS "tenantId", due.google_package_name AS "packageName", c.cursor_at AS "cursorAt"`,
      [STORE, at, new Date(at.getTime() - intervalMs)],
    );
    if (!claimed) break;
    tenants += 1;
    const run = await pollTenant({ pool, fetch, baseUrl, tokens, at, ...claimed });
    voids += run.voids;
    stored += run.stored;
    if (!run.ok) failed += 1;
  }
  return { tenants, voids, stored, failed };
}

async function pollTenant(input: {
  pool: pg.Pool;
  fetch: typeof globalThis.fetch;
  baseUrl: string;
  tokens: AccessTokenProvider;
  at: Date;
  tenantId: string;
  packageName: string;
  cursorAt: Date | null;
}): Promise<{ ok: boolean; voids: number; stored: number }> {
  const { tenantId, packageName, at } = input;
  const startTime = Math.max((input.cursorAt?.getTime() ?? 0) - POLL_OVERLAP_MS, at.getTime() - VOIDED_RETENTION_MS);
  const window = { packageName, startTime: new Date(startTime).toISOString(), endTime: at.toISOString(), cursorBefore: input.cursorAt?.toISOString() ?? null };
  let read: Awaited<ReturnType<typeof listVoidedPurchases>>;
  try {
    read = await listVoidedPurchases({ baseUrl: input.baseUrl, packageName, startTime, endTime: at.getTime(), accessToken: await input.tokens(), fetch: input.fetch });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn({ err: error, tenantId, packageName }, "voided purchases poll failed; the cursor stays");
    await finish(input.pool, tenantId, null, message, { ...window, error: message });
    return { ok: false, voids: 0, stored: 0 };
  }
  let stored = 0;
  for (const v of read.voids) {
    const result = await applyVoid(tenantId, polledVoid(v), v);
    if (result.result === "stored") stored += 1;
  }
  const newest = read.voids.reduce((max, v) => Math.max(max, v.voidedTimeMillis), input.cursorAt?.getTime() ?? 0);
  const cursorAfter = newest > 0 ? new Date(newest) : null;
  await finish(input.pool, tenantId, cursorAfter, null, {
    ...window,
    cursorAfter: cursorAfter?.toISOString() ?? null,
    pages: read.pages,
    voids: read.voids.length,
    stored,
    skipped: read.skipped,
  });
  return { ok: true, voids: read.voids.length, stored };
}

/** The run's end: the cursor (moved only forward, only by a complete run) and its audit fact, in one transaction. */
async function finish(pool: pg.Pool, tenantId: string, cursorAfter: Date | null, error: string | null, detail: Record<string, unknown>): Promise<void> {
  await transaction(
    async ({ client, prisma }: PrismaTransaction) => {
      await execute(
        client,
        `UPDATE store_poll_cursors SET cursor_at = GREATEST(cursor_at, $3), last_error = $4, updated_at = clock_timestamp() WHERE tenant_id = $1 AND store = $2`,
        [tenantId, STORE, cursorAfter, error],
      );
      await audit({ actor: POLL_ACTOR, action: "store.voided-purchases-polled", tenantId, target: `tenant:${tenantId}`, detail: { store: STORE, ...detail } }, prisma);
    },
    { pool, prisma: true },
  );
}
