import "server-only";
import { listPendingApprovals, type PendingApproval } from "@/lib/approvals/refund-approvals";
import { refusedRefundsByApproval } from "@/lib/approvals/refused-refunds";
import { takeBackFactsByApproval } from "@/lib/approvals/take-back-facts";
import { actorOf, type Staff } from "@/lib/auth/staff";
import type { RefusedRefund } from "@/lib/orders/refund-history";
import { takeBackPreview, type TakeBackPreviewData } from "@/lib/orders/take-back-preview";

/** One pending request, with what its decider should see before deciding. */
export interface ApprovalCard extends PendingApproval {
  /** Refunds of its order refused before (rejected approvals, the channel's reject-refund). */
  readonly refused: readonly RefusedRefund[];
  /** What approving would take back, as the agent who asked saw it before asking. */
  readonly takeBack: TakeBackPreviewData | null;
  /** The viewer asked for it: another manager must decide it. */
  readonly own: boolean;
}

/** The approvals page's read model: refund requests waiting for a second person, in the caller's products, oldest first. */
export interface ApprovalsModel {
  readonly pending: readonly ApprovalCard[];
}

export async function readApprovals(staff: Staff): Promise<ApprovalsModel> {
  const pending = await listPendingApprovals(staff.tenantIds);
  const ids = pending.map((a) => a.id);
  const [refused, facts] = await Promise.all([refusedRefundsByApproval(ids), takeBackFactsByApproval(ids)]);
  const me = actorOf(staff);
  return {
    pending: pending.map((a) => {
      const f = facts.get(a.id);
      return {
        ...a,
        refused: refused.get(a.id) ?? [],
        takeBack: f ? { lines: takeBackPreview(f.lines, f.rules), revokeEndpointSet: f.revokeEndpointSet } : null,
        own: a.requestedBy === me,
      };
    }),
  };
}
