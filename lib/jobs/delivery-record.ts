import "server-only";
import type pg from "pg";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { UNRECORDED_PREFIX } from "@/lib/cases/model";
import { settleDeliveryCases } from "@/lib/cases/settle";
import { execute, maybeOne } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { logger } from "@/lib/log";
import { grant, type GrantResult } from "@/lib/orders/grant";
import type { OrderState } from "@/lib/orders/machine";
import { recordException } from "@/lib/orders/record-exception";
import { GRANTED_BY_ENDPOINT_REASON } from "@/lib/orders/system-reasons";
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
// and when to try next (delivery-scan.ts reads both). It doubles as ops' case about the trouble
// (last error, attempts) while the order sits in `delivering`: the case is resolved when delivery
// completes; a person dismissing it ends the backoff (the next run retries), and a failure after
// that reopens it. Unrecorded grants are filed per grantId under UNRECORDED_PREFIX, and stay open
// when delivery completes.
export const FAILURE_KEY = "coordinator";

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
    { orderId, sku: request.sku, quantity: request.quantity, grantId: request.grantId, ...JOB, reason: GRANTED_BY_ENDPOINT_REASON },
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

const failureRow = z.object({ id: z.number(), status: z.string() });

/**
 * Counts a failed grant call on the order's failure case (FAILURE_KEY) and schedules the next
 * attempt. A case someone works keeps its owner; a closed one (resolved, dismissed) opens again,
 * due from now, with an audit fact saying why.
 */
export async function recordFailure(
  failed: FailedCall,
  options: { readonly now: Date; readonly random: () => number; readonly pool: pg.Pool },
): Promise<void> {
  const attempts = failed.failures + 1;
  const nextAttemptAt = new Date(options.now.getTime() + backoffMs(attempts, options.random));
  const detail = JSON.stringify({
    attempts,
    lastError: failed.error,
    sku: failed.request.sku,
    grantId: failed.request.grantId,
    lastAttemptAt: options.now.toISOString(),
    nextAttemptAt: nextAttemptAt.toISOString(),
  });
  await transaction(
    async ({ client, prisma }: PrismaTransaction) => {
      const existing = await maybeOne(
        client,
        failureRow,
        `SELECT id, status FROM order_exceptions WHERE tenant_id = $1 AND order_id = $2 AND kind = 'delivery-failed' AND biz_key = $3 FOR UPDATE`,
        [failed.tenantId, failed.orderId, FAILURE_KEY],
      );
      if (!existing) {
        // A twin inserting first fails this one on the unique key: the retry finds its row.
        await execute(
          client,
          `INSERT INTO order_exceptions (tenant_id, order_id, kind, biz_key, actor, detail) VALUES ($1, $2, 'delivery-failed', $3, $4, $5)`,
          [failed.tenantId, failed.orderId, FAILURE_KEY, DELIVERY_ACTOR, detail],
        );
        return;
      }
      if (existing.status === "open" || existing.status === "in-progress") {
        await execute(client, `UPDATE order_exceptions SET detail = $2 WHERE id = $1`, [existing.id, detail]);
        return;
      }
      await execute(
        client,
        `UPDATE order_exceptions SET detail = $2, status = 'open', owner = NULL, taken_at = NULL, resolution = NULL, resolution_key = NULL,
           resolution_ref = NULL, resolved_reason = NULL, resolved_at = NULL, resolved_by = NULL,
           sla_due_at = case_sla_due(tenant_id, kind, now())
         WHERE id = $1`,
        [existing.id, detail],
      );
      await audit(
        {
          actor: DELIVERY_ACTOR,
          action: "case.reopened",
          tenantId: failed.tenantId,
          orderId: failed.orderId,
          target: `case:${existing.id}`,
          detail: { caseId: existing.id, kind: "delivery-failed", previousStatus: existing.status, attempts, lastError: failed.error },
        },
        prisma,
      );
    },
    { pool: options.pool, prisma: true, retry: { label: "record grant failure", uniqueViolations: true } },
  );
  log.warn({ orderId: failed.orderId, tenantId: failed.tenantId, attempts, error: failed.error }, "grant call failed; backing off");
}

/** Confirms delivery once nothing is pending; true when this call moved the order. */
export async function confirmDelivery(tenantId: string, orderId: number, pool: pg.Pool): Promise<boolean> {
  const confirmed = await transit({ orderId, event: "confirm-delivery", bizKey: COORDINATOR_BIZ_KEY, expectedState: "delivering", ...JOB }, pool);
  // Delivered: the order's goods cases are over (the failed attempts are history now; grants the
  // ledger refused stay for ops), closed by the coordinator with their audit facts.
  if (confirmed.result === "applied" || confirmed.result === "duplicate") await settleDeliveryCases({ tenantId, orderId, actor: DELIVERY_ACTOR }, pool);
  return confirmed.result === "applied";
}
