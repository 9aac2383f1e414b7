import "server-only";
import { z } from "zod";
import { rows, type Queryable } from "@/lib/db/sql";

// Endpoint health (issue 27, item 5): per product and endpoint URL, from the attempts log
// (outbox_attempts), the share of attempts answered 2xx and the p95 latency over the last hour and
// the last day, and since when an endpoint has answered nothing but failures.

/** An endpoint that has failed every attempt for longer than this is called out on the overview. */
export const FAILING_FOR_MS = 15 * 60_000;

export interface WindowHealth {
  readonly attempts: number;
  readonly succeeded: number;
  /** Whole milliseconds; null without attempts in the window. */
  readonly p95LatencyMs: number | null;
}

export interface EndpointHealth {
  readonly tenantId: string;
  readonly url: string;
  readonly hour: WindowHealth;
  readonly day: WindowHealth;
  readonly lastAttemptAt: Date;
  readonly lastSuccessAt: Date | null;
  /** The first failure after the last success (within the day), while the latest attempt failed; else null. */
  readonly failingSince: Date | null;
  /** failingSince is more than FAILING_FOR_MS ago. */
  readonly failingTooLong: boolean;
}

const healthRow = z.object({
  tenantId: z.string(),
  url: z.string(),
  hourAttempts: z.number(),
  hourSucceeded: z.number(),
  hourP95: z.number().nullable(),
  dayAttempts: z.number(),
  daySucceeded: z.number(),
  dayP95: z.number().nullable(),
  lastAttemptAt: z.coerce.date(),
  lastSuccessAt: z.coerce.date().nullable(),
  lastOk: z.boolean(),
  failingSince: z.coerce.date().nullable(),
});

/** Every endpoint of `tenants` attempted in the day before `now`, worst first (failing longest, then lowest success rate). */
export async function endpointHealth(db: Queryable, tenants: readonly string[], now: Date): Promise<EndpointHealth[]> {
  if (tenants.length === 0) return [];
  const found = await rows(
    db,
    healthRow,
    `WITH a AS (
       SELECT tenant_id, url, attempted_at, latency_ms, (status BETWEEN 200 AND 299) AS ok
       FROM outbox_attempts
       WHERE tenant_id = ANY($1::text[]) AND attempted_at > $2::timestamptz - interval '1 day' AND attempted_at <= $2::timestamptz
     ), e AS (
       SELECT tenant_id, url,
              count(*) FILTER (WHERE attempted_at > $2::timestamptz - interval '1 hour')::int AS "hourAttempts",
              count(*) FILTER (WHERE attempted_at > $2::timestamptz - interval '1 hour' AND ok)::int AS "hourSucceeded",
              round(percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE attempted_at > $2::timestamptz - interval '1 hour'))::int AS "hourP95",
              count(*)::int AS "dayAttempts",
              count(*) FILTER (WHERE ok)::int AS "daySucceeded",
              round(percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms))::int AS "dayP95",
              max(attempted_at) AS "lastAttemptAt",
              max(attempted_at) FILTER (WHERE ok) AS "lastSuccessAt"
       FROM a GROUP BY tenant_id, url
     )
     SELECT e.tenant_id AS "tenantId", e.url, e."hourAttempts", e."hourSucceeded", e."hourP95", e."dayAttempts", e."daySucceeded", e."dayP95",
            e."lastAttemptAt", e."lastSuccessAt", e."lastSuccessAt" IS NOT DISTINCT FROM e."lastAttemptAt" AS "lastOk",
            (SELECT min(f.attempted_at) FROM a f WHERE f.tenant_id = e.tenant_id AND f.url = e.url AND NOT f.ok
               AND (e."lastSuccessAt" IS NULL OR f.attempted_at > e."lastSuccessAt")) AS "failingSince"
     FROM e`,
    [tenants, now],
  );
  const health = found.map((r): EndpointHealth => {
    const failingSince = r.lastOk ? null : r.failingSince;
    return {
      tenantId: r.tenantId,
      url: r.url,
      hour: { attempts: r.hourAttempts, succeeded: r.hourSucceeded, p95LatencyMs: r.hourP95 },
      day: { attempts: r.dayAttempts, succeeded: r.daySucceeded, p95LatencyMs: r.dayP95 },
      lastAttemptAt: r.lastAttemptAt,
      lastSuccessAt: r.lastSuccessAt,
      failingSince,
      failingTooLong: failingSince !== null && now.getTime() - failingSince.getTime() > FAILING_FOR_MS,
    };
  });
  const rate = (w: WindowHealth) => (w.attempts === 0 ? 1 : w.succeeded / w.attempts);
  return health.sort(
    (x, y) =>
      (x.failingSince?.getTime() ?? Infinity) - (y.failingSince?.getTime() ?? Infinity) ||
      rate(x.day) - rate(y.day) ||
      x.tenantId.localeCompare(y.tenantId) ||
      x.url.localeCompare(y.url),
  );
}
