import "server-only";
import type pg from "pg";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { execute, maybeOne, one } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { enqueueMessage } from "@/lib/outbox/outbox";
import type { RefundProblem } from "@/lib/problems";
import { refundable } from "./model";
import { REFUND_COLUMNS, refundRow, type RefundRecord } from "./rows";

export interface RefundRequest {
  readonly tenantId: string;
  /** Ours, and the channel's refund number: the same id again is the same refund. */
  readonly refundId: string;
  /** The order the payment was for, when there is one. */
  readonly orderId: number | null;
  readonly caseId: number | null;
  readonly channel: string;
  readonly paymentTxn: string;
  readonly paymentAmount: number;
  readonly amount: number;
  readonly currency: string;
  readonly reason: string;
  readonly requestedBy: string;
}

export type RefundRequestResult =
  | { readonly result: "requested" | "duplicate"; readonly refund: RefundRecord }
  | { readonly result: "refused"; readonly refusal: RefundProblem };

/** The payload of `refund.requested` webhooks: what the channel needs to refund. */
export interface RefundRequestedPayload {
  readonly tenantId: string;
  readonly refundId: string;
  readonly orderNo: string | null;
  readonly channel: string;
  readonly paymentTxn: string;
  readonly amount: number;
  readonly currency: string;
  readonly reason: string;
}

const reservedRow = z.object({ reserved: z.number() });

/** What the channel is told of a refund: made from the refund row, so a resend says exactly what the first request said. */
export function refundRequestedPayload(refund: RefundRecord): RefundRequestedPayload {
  return {
    tenantId: refund.tenantId,
    refundId: refund.refundId,
    orderNo: refund.orderNo,
    channel: refund.channel,
    paymentTxn: refund.paymentTxn,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
  };
}

/**
 * Asks a channel for a refund, inside the caller's transaction (a case resolution writes its own
 * change beside it): the refund row, its `refund.requested` outbox message and its audit fact,
 * together or not at all.
 *
 * The cap — what a payment's refunds hold never exceeds the payment — is a check under a lock on the
 * payment (an advisory lock on tenant and transaction id: the payment has no row of its own to
 * lock). Requested and sent refunds count, not only confirmed ones: otherwise eleven requests of 10
 * on a payment of 100 would all pass, and a channel that confirmed them all would refund 110. A
 * failed refund gives its amount back.
 */
export async function requestRefundIn(tx: PrismaTransaction, input: RefundRequest): Promise<RefundRequestResult> {
  await execute(tx.client, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`refund:${input.tenantId}:${input.paymentTxn}`]);
  const existing = await maybeOne(tx.client, refundRow, `SELECT ${REFUND_COLUMNS} FROM payment_refunds r WHERE r.tenant_id = $1 AND r.refund_id = $2`, [
    input.tenantId,
    input.refundId,
  ]);
  if (existing) return { result: "duplicate", refund: existing };

  const { reserved } = await one(
    tx.client,
    reservedRow,
    `SELECT coalesce(sum(amount), 0)::bigint AS reserved FROM payment_refunds WHERE tenant_id = $1 AND payment_txn = $2 AND status <> 'failed'`,
    [input.tenantId, input.paymentTxn],
  );
  const left = refundable(input.paymentAmount, reserved);
  if (input.amount > left) {
    return { result: "refused", refusal: { kind: "refund-exceeds-payment", requested: input.amount, refundable: left, currency: input.currency } };
  }

  const refund = await one(
    tx.client,
    refundRow,
    `WITH r AS (
       INSERT INTO payment_refunds (tenant_id, refund_id, order_id, case_id, channel, payment_txn, payment_amount, amount, currency, reason, requested_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING *
     )
     SELECT ${REFUND_COLUMNS} FROM r`,
    [
      input.tenantId,
      input.refundId,
      input.orderId,
      input.caseId,
      input.channel,
      input.paymentTxn,
      input.paymentAmount,
      input.amount,
      input.currency,
      input.reason,
      input.requestedBy,
    ],
  );
  await enqueueMessage(tx.client, { tenantId: input.tenantId, orderId: input.orderId, topic: "refund.requested", payload: refundRequestedPayload(refund) });
  await audit(
    {
      actor: input.requestedBy,
      action: "refund.requested",
      tenantId: input.tenantId,
      orderId: input.orderId,
      target: `refund:${input.refundId}`,
      detail: {
        refundId: input.refundId,
        caseId: input.caseId,
        channel: input.channel,
        paymentTxn: input.paymentTxn,
        paymentAmount: input.paymentAmount,
        amount: input.amount,
        currency: input.currency,
        reason: input.reason,
      },
    },
    tx.prisma,
  );
  return { result: "requested", refund };
}

/** A refund request on its own (tests, scripts): one transaction. */
export function requestRefund(input: RefundRequest, pool: pg.Pool = getPool()): Promise<RefundRequestResult> {
  return transaction((tx: PrismaTransaction) => requestRefundIn(tx, input), { pool, prisma: true });
}
