import "server-only";
import { audit } from "@/lib/audit/record";
import { execute, maybeOne } from "@/lib/db/sql";
import type { PrismaTransaction, Tx } from "@/lib/db/transaction";
import { enqueueMessage } from "@/lib/outbox/outbox";
import { refundRequestedPayload } from "./request-refund";
import { REFUND_COLUMNS, refundRow, type RefundRecord } from "./rows";

// What a person does about a refund whose request never reached the channel (issue 29): send it
// again once a webhook can carry it, or record that the channel was told another way. Each in the
// caller's transaction, which locked the refund (lockRefund) and judged that it may.

/**
 * The refund row, locked — first, before its case: the channel's answer (lib/cases/refund-event.ts)
 * locks the refund and then the case, and taking them in the same order means the two never deadlock.
 */
export async function lockRefund(tx: Tx, tenantId: string, refundId: string): Promise<RefundRecord | null> {
  return maybeOne(tx.client, refundRow, `SELECT ${REFUND_COLUMNS} FROM payment_refunds r WHERE r.tenant_id = $1 AND r.refund_id = $2 FOR UPDATE OF r`, [tenantId, refundId]);
}

export interface RefundNotice {
  readonly actor: string;
  readonly reason: string;
}

/**
 * A fresh `refund.requested` message, and its audit fact. The payload is the first request's, refund
 * id included: a channel that did get the first after all still refunds once. The relay marks the
 * refund `sent` when this one is delivered. Returns the new message's id.
 */
export async function resendRefundRequestIn(
  tx: PrismaTransaction,
  refund: RefundRecord,
  notice: RefundNotice & { readonly previousMessageId: number | null },
): Promise<number> {
  const messageId = await enqueueMessage(tx.client, { tenantId: refund.tenantId, orderId: refund.orderId, topic: "refund.requested", payload: refundRequestedPayload(refund) });
  await audit(
    {
      actor: notice.actor,
      action: "refund.resent",
      tenantId: refund.tenantId,
      orderId: refund.orderId,
      target: `refund:${refund.refundId}`,
      detail: { refundId: refund.refundId, caseId: refund.caseId, messageId, previousMessageId: notice.previousMessageId, reason: notice.reason },
    },
    tx.prisma,
  );
  return messageId;
}

/**
 * requested → sent because a person told the channel another way (its merchant portal, a call): the
 * state change the relay makes on delivery, under the same audit action (`refund.sent`), marked
 * `means: other` with who and why. The channel's answer then settles the refund as usual.
 */
export async function markRefundToldIn(tx: PrismaTransaction, refund: RefundRecord, notice: RefundNotice): Promise<void> {
  await execute(tx.client, `UPDATE payment_refunds SET status = 'sent', updated_at = now() WHERE id = $1 AND status = 'requested'`, [refund.id]);
  await audit(
    {
      actor: notice.actor,
      action: "refund.sent",
      tenantId: refund.tenantId,
      orderId: refund.orderId,
      target: `refund:${refund.refundId}`,
      detail: { refundId: refund.refundId, caseId: refund.caseId, means: "other", reason: notice.reason },
    },
    tx.prisma,
  );
}
