import "server-only";
import type pg from "pg";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { maybeOne, one } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import type { RefundProblem } from "@/lib/problems";
import { decideRefundEvent, type RefundEvent } from "@/lib/refunds/model";
import { REFUND_COLUMNS, refundRow, type RefundRecord } from "@/lib/refunds/rows";
import { settleRefundedCase } from "./settle";

export interface RefundEventInput {
  readonly tenantId: string;
  readonly refundId: string;
  readonly event: RefundEvent;
  /** The channel's own id for its answer (its refund receipt): the same answer again is a duplicate. */
  readonly bizKey: string;
  readonly actor: string;
  readonly reason?: string | null;
}

export type RefundEventResult =
  | { readonly result: "applied" | "duplicate"; readonly refund: RefundRecord; readonly caseResolved: boolean }
  | { readonly result: "illegal"; readonly refund: RefundRecord; readonly refusal: RefundProblem }
  | { readonly result: "not-found" };

/**
 * A channel's answer to a refund: confirm or fail, by the rules of order events (lock, duplicate by
 * bizKey, illegal on a settled refund). In the same transaction: the refund's audit fact, and — on
 * a confirmation — the case it resolves, closed by the system. A failed refund gives its amount back
 * to the payment (the cap counts only refunds that are not failed) and leaves its case for a person
 * to choose again.
 */
export async function applyRefundEvent(input: RefundEventInput, pool: pg.Pool = getPool()): Promise<RefundEventResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<RefundEventResult> => {
      const refund = await maybeOne(
        tx.client,
        refundRow,
        `SELECT ${REFUND_COLUMNS} FROM payment_refunds r WHERE r.tenant_id = $1 AND r.refund_id = $2 FOR UPDATE OF r`,
        [input.tenantId, input.refundId],
      );
      if (!refund) return { result: "not-found" };
      const decision = decideRefundEvent(refund, input.event, input.bizKey);
      if (decision.outcome === "duplicate") return { result: "duplicate", refund, caseResolved: false };
      if (decision.outcome === "illegal") return { result: "illegal", refund, refusal: decision.refusal };

      const updated = await one(
        tx.client,
        refundRow,
        `WITH r AS (
           UPDATE payment_refunds SET status = $2, channel_ref = $3, settled_by = $4, updated_at = now() WHERE id = $1 RETURNING *
         )
         SELECT ${REFUND_COLUMNS} FROM r`,
        [refund.id, decision.to, input.bizKey, input.actor],
      );
      await audit(
        {
          actor: input.actor,
          action: decision.to === "confirmed" ? "refund.confirmed" : "refund.failed",
          tenantId: input.tenantId,
          orderId: refund.orderId,
          target: `refund:${refund.refundId}`,
          detail: {
            refundId: refund.refundId,
            caseId: refund.caseId,
            bizKey: input.bizKey,
            amount: refund.amount,
            currency: refund.currency,
            from: refund.status,
            ...(input.reason ? { reason: input.reason } : {}),
          },
        },
        tx.prisma,
      );
      const caseResolved =
        decision.to === "confirmed" && refund.caseId !== null
          ? await settleRefundedCase(tx, { tenantId: input.tenantId, caseId: refund.caseId, refundId: refund.refundId })
          : false;
      return { result: "applied", refund: updated, caseResolved };
    },
    { pool, prisma: true, retry: { label: `refund ${input.event}` } },
  );
}
