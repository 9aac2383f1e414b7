import "server-only";
import type pg from "pg";
import { getPrisma } from "@/lib/db/prisma";
import { execute } from "@/lib/db/sql";
import { logger } from "@/lib/log";
import { grant, type GrantResult } from "@/lib/orders/grant";
import type { OrderState } from "@/lib/orders/machine";
import { recordException } from "@/lib/orders/record-exception";
import { transit } from "@/lib/orders/transit";
import type { Refusal } from "@/lib/problems";
import { backoffMs } from "./backoff";
import type { GrantRequest } from "./delivery-call";

// What the delivery coordinator writes: its transitions and grants (through transit() and
// grant()), its failed calls and their backoff, and grants the game server made that the ledger
// refused.

export const DELIVERY_ACTOR = "system:delivery";
/** The bizKey of the coordinator's begin-delivery and confirm-delivery: each happens once per order. */
export const COORDINATOR_BIZ_KEY = "coordinator";

// Failed grant calls are remembered in the database, not in a worker's memory: one order_exceptions
// row per order, kind delivery-failed, biz_key 'coordinator', whose detail holds the attempt count
// and when to try next (delivery-scan.ts reads both). It doubles as ops' view of the trouble (last
// error, attempts) while the order sits in `delivering` and shows up in the stuck queue; it is
// resolved when delivery completes, and an ops member resolving it by hand resets the backoff (the
// next run retries).
export const FAILURE_KEY = "coordinator";
/** Unrecorded grants are filed per grantId under this prefix, and stay open when delivery completes. */
const UNRECORDED_PREFIX = "unrecorded:";

const JOB = { actor: DELIVERY_ACTOR, source: "job" } as const;
const log = logger.child({ job: "delivery-coordinator" });

/** `begun` by us, already `delivering` (begun by someone else: carry on), or `moved-on` (refunded, closed: nothing to deliver). */
export type Begin = "begun" | "delivering" | "moved-on";

export async function beginDelivery(orderId: number, pool: pg.Pool): Promise<Begin> {
  const begun = await transit({ orderId, event: "begin-delivery", bizKey: COORDINATOR_BIZ_KEY, expectedState: "paid", ...JOB }, pool);
  if (begun.result === "not-found" || begun.order.state !== "delivering") return "moved-on";
  return begun.result === "applied" ? "begun" : "delivering";
}

/** The detail of an unrecorded grant's exception: data for ops, words chosen where it is shown. */
export type UnrecordedGrant = {
  readonly grantResult: Exclude<GrantResult["result"], "applied" | "duplicate">;
  /** Absent when the order was not found. */
  readonly refusal?: Refusal;
  readonly sku: string;
  readonly quantity: number;
  readonly grantId: string;
  /** The order's state when the ledger refused. */
  readonly state?: OrderState;
};

/**
 * Records in the ledger a grant the endpoint confirmed. `unrecorded`: the game server granted, but
 * the order moved on (a refund was requested, someone else granted the line) and the ledger
 * refused. The player has the goods the ledger lacks, so ops get an exception; if the order comes
 * back to delivering, the same grantId lets the ledger catch up.
 */
export async function recordGrant(tenantId: string, orderId: number, request: GrantRequest, pool: pg.Pool): Promise<"granted" | "unrecorded"> {
  const granted = await grant(
    { orderId, sku: request.sku, quantity: request.quantity, grantId: request.grantId, ...JOB, reason: "granted through the grant endpoint" },
    pool,
  );
  if (granted.result === "applied" || granted.result === "duplicate") return "granted";

  const detail: UnrecordedGrant = {
    grantResult: granted.result,
    ...("refusal" in granted ? { refusal: granted.refusal } : {}),
    sku: request.sku,
    quantity: request.quantity,
    grantId: request.grantId,
    ...("order" in granted ? { state: granted.order.state } : {}),
  };
  await recordException(
    { tenantId, orderId, kind: "delivery-failed", bizKey: `${UNRECORDED_PREFIX}${request.grantId}`, actor: DELIVERY_ACTOR, detail },
    pool,
  );
  return "unrecorded";
}

export interface FailedCall {
  readonly tenantId: string;
  readonly orderId: number;
  /** Failed attempts before this one. */
  readonly failures: number;
  readonly request: GrantRequest;
  readonly error: string;
}

/** Counts a failed grant call on the order's failure row (FAILURE_KEY) and schedules the next attempt. */
export async function recordFailure(
  failed: FailedCall,
  options: { readonly now: Date; readonly random: () => number; readonly pool: pg.Pool },
): Promise<void> {
  const attempts = failed.failures + 1;
  const nextAttemptAt = new Date(options.now.getTime() + backoffMs(attempts, options.random));
  await execute(
    options.pool,
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, biz_key, actor, detail)
     VALUES ($1, $2, 'delivery-failed', $3, $4, $5)
     ON CONFLICT (tenant_id, order_id, kind, biz_key) DO UPDATE
     SET detail = EXCLUDED.detail, status = 'open', resolved_at = NULL, resolved_by = NULL`,
    [
      failed.tenantId,
      failed.orderId,
      FAILURE_KEY,
      DELIVERY_ACTOR,
      JSON.stringify({
        attempts,
        lastError: failed.error,
        sku: failed.request.sku,
        grantId: failed.request.grantId,
        lastAttemptAt: options.now.toISOString(),
        nextAttemptAt: nextAttemptAt.toISOString(),
      }),
    ],
  );
  log.warn({ orderId: failed.orderId, tenantId: failed.tenantId, attempts, error: failed.error }, "grant call failed; backing off");
}

/** Confirms delivery once nothing is pending; true when this call moved the order. */
export async function confirmDelivery(tenantId: string, orderId: number, pool: pg.Pool): Promise<boolean> {
  const confirmed = await transit({ orderId, event: "confirm-delivery", bizKey: COORDINATOR_BIZ_KEY, expectedState: "delivering", ...JOB }, pool);
  if (confirmed.result === "applied" || confirmed.result === "duplicate") {
    // Delivered: failed attempts are history now. (Not the unrecorded grants: those stay for ops.)
    await getPrisma().orderException.updateMany({
      where: { tenantId, orderId: BigInt(orderId), kind: "delivery-failed", status: "open", NOT: { bizKey: { startsWith: UNRECORDED_PREFIX } } },
      data: { status: "resolved", resolvedAt: new Date(), resolvedBy: DELIVERY_ACTOR },
    });
  }
  return confirmed.result === "applied";
}
