import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { rows } from "@/lib/db/sql";
import type { PrismaTransaction } from "@/lib/db/transaction";

export const RELAY_ACTOR = "system:outbox-relay";

const sentRow = z.object({ refundId: z.string(), orderId: z.number().nullable(), caseId: z.number().nullable() });

/**
 * requested → sent, for refunds whose `refund.requested` message the relay just delivered to the
 * channel's webhook: in the relay's settling transaction, one audit fact each. A refund the channel
 * already answered (it may answer before we record the delivery) stays as it is.
 */
export async function markRefundsSent(tx: PrismaTransaction, sent: readonly { readonly tenantId: string; readonly refundId: string; readonly messageId: number }[]): Promise<number> {
  let marked = 0;
  for (const message of sent) {
    const [row] = await rows(
      tx.client,
      sentRow,
      `UPDATE payment_refunds SET status = 'sent', updated_at = now() WHERE tenant_id = $1 AND refund_id = $2 AND status = 'requested'
       RETURNING refund_id AS "refundId", order_id AS "orderId", case_id AS "caseId"`,
      [message.tenantId, message.refundId],
    );
    if (!row) continue;
    marked++;
    await audit(
      {
        actor: RELAY_ACTOR,
        action: "refund.sent",
        tenantId: message.tenantId,
        orderId: row.orderId,
        target: `refund:${row.refundId}`,
        detail: { refundId: row.refundId, caseId: row.caseId, messageId: message.messageId },
      },
      tx.prisma,
    );
  }
  return marked;
}
