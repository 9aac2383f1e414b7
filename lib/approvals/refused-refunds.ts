import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { refusedRefunds, type RefusedRefund } from "@/lib/orders/refund-history";

const refusalRow = z.object({
  pendingId: z.number(),
  source: z.enum(["approval", "transition"]),
  id: z.number(),
  status: z.string(),
  requestedBy: z.string(),
  reason: z.string().nullable(),
  by: z.string().nullable(),
  bizKey: z.string(),
  at: z.coerce.date(),
});

/**
 * For each pending approval, the refunds of its order refused before — approvals a manager rejected
 * and the channel's reject-refund transitions — so whoever decides sees that history on the card.
 * Both lookups lead with (tenant_id, order_id) on their tables' keys.
 */
export async function refusedRefundsByApproval(approvalIds: readonly number[]): Promise<ReadonlyMap<number, readonly RefusedRefund[]>> {
  if (approvalIds.length === 0) return new Map();
  const found = await rows(
    getPool(),
    refusalRow,
    `SELECT p.id AS "pendingId", 'approval' AS source, r.id, r.status, r.requested_by AS "requestedBy", r.decision_reason AS reason,
            r.decided_by AS by, '' AS "bizKey", coalesce(r.decided_at, r.created_at) AS at
     FROM refund_approvals p JOIN refund_approvals r ON r.tenant_id = p.tenant_id AND r.order_id = p.order_id AND r.status = 'rejected'
     WHERE p.id = ANY($1::bigint[])
     UNION ALL
     SELECT p.id, 'transition', t.id, '', '', t.reason, t.actor, t.biz_key, t.created_at
     FROM refund_approvals p JOIN order_transitions t ON t.tenant_id = p.tenant_id AND t.order_id = p.order_id AND t.event = 'reject-refund'
     WHERE p.id = ANY($1::bigint[])`,
    [approvalIds],
  );
  const byApproval = new Map<number, RefusedRefund[]>();
  for (const id of approvalIds) {
    const mine = found.filter((r) => r.pendingId === id);
    const approvals = mine.flatMap((r) =>
      r.source === "approval"
        ? [{ id: r.id, status: r.status, requestedBy: r.requestedBy, reason: "", createdAt: r.at, decidedBy: r.by, decisionReason: r.reason, decidedAt: r.at }]
        : [],
    );
    const transitions = mine.flatMap((r) =>
      r.source === "transition" ? [{ id: r.id, event: "reject-refund" as const, actor: r.by ?? "", reason: r.reason, bizKey: r.bizKey, at: r.at }] : [],
    );
    const refused = refusedRefunds(approvals, transitions);
    if (refused.length > 0) byApproval.set(id, refused);
  }
  return byApproval;
}
