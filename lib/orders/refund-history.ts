// What an agent must know before asking for a refund: whether one is already waiting for a manager,
// and whether refunds of this order were refused before (by a manager, or by the payment channel).
// Pure: the order page reads them from its detail, the approvals page from its own query.
import type { TransitionRecord } from "./types";

/** A refund asked for and refused: an approval a manager rejected, or the channel's reject-refund. */
export type RefusedRefund =
  | {
      readonly kind: "approval-rejected";
      readonly approvalId: number;
      readonly at: Date;
      readonly by: string | null;
      readonly reason: string | null;
      readonly requestedBy: string;
    }
  | { readonly kind: "channel-rejected"; readonly transitionId: number; readonly at: Date; readonly by: string; readonly reason: string | null; readonly receipt: string };

export interface ApprovalFacts {
  readonly id: number;
  readonly status: string;
  readonly requestedBy: string;
  readonly reason: string;
  readonly createdAt: Date;
  readonly decidedBy: string | null;
  readonly decisionReason: string | null;
  readonly decidedAt: Date | null;
}

export interface PendingRefundApproval {
  readonly id: number;
  readonly requestedBy: string;
  readonly reason: string;
  readonly at: Date;
}

/** The request waiting for a manager (at most one per order: a unique index says so). */
export function pendingApproval(approvals: readonly ApprovalFacts[]): PendingRefundApproval | null {
  const pending = approvals.find((a) => a.status === "pending");
  return pending ? { id: pending.id, requestedBy: pending.requestedBy, reason: pending.reason, at: pending.createdAt } : null;
}

/** Every refund refused before on the order, newest first. */
export function refusedRefunds(approvals: readonly ApprovalFacts[], transitions: readonly Pick<TransitionRecord, "id" | "event" | "actor" | "reason" | "bizKey" | "at">[]): RefusedRefund[] {
  const refused: RefusedRefund[] = [
    ...approvals.flatMap((a): RefusedRefund[] =>
      a.status === "rejected"
        ? [{ kind: "approval-rejected", approvalId: a.id, at: a.decidedAt ?? a.createdAt, by: a.decidedBy, reason: a.decisionReason, requestedBy: a.requestedBy }]
        : [],
    ),
    ...transitions.flatMap((t): RefusedRefund[] =>
      t.event === "reject-refund" ? [{ kind: "channel-rejected", transitionId: t.id, at: t.at, by: t.actor, reason: t.reason, receipt: t.bizKey }] : [],
    ),
  ];
  return refused.sort((a, b) => b.at.getTime() - a.at.getTime());
}
