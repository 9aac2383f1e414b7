// What an agent must know before asking for a refund: whether it needs a manager, whether one is
// already waiting for a manager, and whether refunds of this order were refused before (by a
// manager, by the payment channel, or recorded as refused by staff).
// Pure: the order page reads them from its detail, the approvals page from its own query.
import type { OrderEvent } from "./machine";
import { channelOfActor } from "./payment";
import type { TransitionRecord } from "./types";

/**
 * Whether a console refund of an order of this amount goes to a manager first: above the product's
 * approval amount (none set: never). request-refund decides with it, and the order page says it
 * before anyone confirms.
 */
export function refundNeedsApprovalOf(amount: number, approvalAmount: number | null): boolean {
  return approvalAmount !== null && amount > approvalAmount;
}

/**
 * The refund history's word on what the console offers: while a request waits for a manager a
 * second one is refused, so request-refund is not offered (the banner says why).
 */
export function eventsOffered(events: readonly OrderEvent[], waiting: PendingRefundApproval | null): OrderEvent[] {
  return waiting ? events.filter((e) => e !== "request-refund") : [...events];
}

/**
 * A refund asked for and refused: an approval a manager rejected, a reject-refund the channel sent
 * (its callback or its API key), or one staff recorded from the console (with the receipt they typed).
 */
export type RefusedRefund =
  | {
      readonly kind: "approval-rejected";
      readonly approvalId: number;
      readonly at: Date;
      readonly by: string | null;
      readonly reason: string | null;
      readonly requestedBy: string;
    }
  | { readonly kind: "channel-rejected"; readonly transitionId: number; readonly at: Date; readonly channel: string; readonly reason: string | null; readonly receipt: string }
  | { readonly kind: "staff-rejected"; readonly transitionId: number; readonly at: Date; readonly by: string; readonly reason: string | null; readonly receipt: string };

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
    ...transitions.flatMap((t): RefusedRefund[] => (t.event === "reject-refund" ? [refusalBy(t)] : [])),
  ];
  return refused.sort((a, b) => b.at.getTime() - a.at.getTime());
}

/**
 * Who refused, from the transition's actor: staff who recorded it from the console, or else the
 * channel (by its name when the actor names one: its callback or its API key; otherwise as stored).
 */
function refusalBy(t: Pick<TransitionRecord, "id" | "actor" | "reason" | "bizKey" | "at">): RefusedRefund {
  return t.actor.startsWith("staff:")
    ? { kind: "staff-rejected", transitionId: t.id, at: t.at, by: t.actor, reason: t.reason, receipt: t.bizKey }
    : { kind: "channel-rejected", transitionId: t.id, at: t.at, channel: channelOfActor(t.actor) ?? t.actor, reason: t.reason, receipt: t.bizKey };
}
