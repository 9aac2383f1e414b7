// The keys of whoever drives delivery, as SQL over the seeder's work tables: the game server's own
// (external delivery mode), or what the delivery coordinator (lib/jobs/delivery-coordinator.ts)
// writes for a tenant in managed delivery mode. Seeded history must carry exactly the latter:
// a live coordinator on seeded data then finds its own begin/confirm bizKeys, grantIds and failure
// record (attempts, next attempt) and carries on from them instead of writing a second history
// beside the first. seed-demo-live.integration.test.ts runs the coordinator to prove it.
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS } from "@/lib/jobs/backoff";
import { COORDINATOR_BIZ_KEY, DELIVERY_ACTOR } from "@/lib/jobs/delivery-coordinator";
import { lit } from "./sql-helpers";

export const COORDINATOR = {
  actor: DELIVERY_ACTOR,
  source: "job",
  /** The bizKey of its begin-delivery and confirm-delivery. */
  bizKey: COORDINATOR_BIZ_KEY,
  /** The reason of the grants it records. */
  grantReason: "granted through the grant endpoint",
  /** The biz_key of its one delivery-failed exception per order. */
  failureKey: "coordinator",
} as const;

/** Its grantId: `deliver:<orderNo>:<sku>:<granted so far>`, stable until the ledger records the grant. */
export function coordinatorGrantIdSql(orderNo: string, sku: string, grantedSoFar: string): string {
  return `'deliver:' || ${orderNo} || ':' || ${sku} || ':' || ${grantedSoFar}`;
}

/** backoffMs(attempts) with `random` in [0, 1), as an interval. */
export function backoffSql(attempts: string, random: string): string {
  const step = `least(${BACKOFF_CAP_MS}, ${BACKOFF_BASE_MS} * power(2, greatest(0, ${attempts} - 1)))`;
  return `(round(${step} / 2 + ${step} / 2 * ${random}) * interval '1 millisecond')`;
}

/** A timestamp as the coordinator stores it in a detail: Date.toISOString(). */
export function isoSql(ts: string): string {
  return `to_char((${ts}) AT TIME ZONE 'UTC', ${lit(`YYYY-MM-DD"T"HH24:MI:SS.MS"Z"`)})`;
}

/** The bizKey of begin-delivery and of confirm-delivery when the party driving delivery confirms. */
export function deliveryBizKeySql(tenant: string, orderId: string): string {
  return `CASE WHEN ${tenant}.managed THEN ${lit(COORDINATOR.bizKey)} ELSE ${tenant}.delivery_key_prefix || ${orderId} END`;
}
