// Channel refunds (seed 003's refund entity): a refund we ask a payment channel to make, and what
// the channel answers. Pure: the states, the events, and what one event does to one refund.
import type { RefundProblem } from "@/lib/problems";

export const REFUND_STATUSES = ["requested", "sent", "confirmed", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The channel's answers, through POST /api/v1/refunds/{refundId}/events. */
export const REFUND_EVENTS = ["confirm", "fail"] as const;
export type RefundEvent = (typeof REFUND_EVENTS)[number];

/**
 * Not over yet: the money is promised to the player. These count against the payment's cap, so a
 * payment of 100 with 11 requests of 10 in flight cannot end with 110 refunded.
 */
export const PENDING_REFUND_STATUSES = ["requested", "sent"] as const satisfies readonly RefundStatus[];
/** What counts against a payment: everything but a refund the channel failed. */
export const RESERVING_STATUSES = ["requested", "sent", "confirmed"] as const satisfies readonly RefundStatus[];

export const REFUND_EVENT_TARGET: Readonly<Record<RefundEvent, RefundStatus>> = { confirm: "confirmed", fail: "failed" };

export function isPending(status: RefundStatus): boolean {
  return (PENDING_REFUND_STATUSES as readonly RefundStatus[]).includes(status);
}

export function isRefundStatus(value: string): value is RefundStatus {
  return (REFUND_STATUSES as readonly string[]).includes(value);
}

export interface RefundEventFacts {
  readonly refundId: string;
  readonly status: RefundStatus;
  /** The bizKey of the confirm or fail that settled it. */
  readonly channelRef: string | null;
}

export type RefundDecision =
  | { readonly outcome: "apply"; readonly to: RefundStatus }
  | { readonly outcome: "duplicate" }
  | { readonly outcome: "illegal"; readonly refusal: RefundProblem };

/**
 * What a channel's confirm or fail does, by the same rules as order events: legal from requested or
 * sent (a channel may answer before our relay has recorded the request as sent); the same event with
 * the same bizKey again is a duplicate; anything on a settled refund is illegal.
 */
export function decideRefundEvent(refund: RefundEventFacts, event: RefundEvent, bizKey: string): RefundDecision {
  if (isPending(refund.status)) return { outcome: "apply", to: REFUND_EVENT_TARGET[event] };
  if (refund.status === REFUND_EVENT_TARGET[event] && refund.channelRef === bizKey) return { outcome: "duplicate" };
  return { outcome: "illegal", refusal: { kind: "refund-settled", refundId: refund.refundId, status: refund.status, event } };
}

/** What may still be refunded of a payment, given what its refunds already hold. */
export function refundable(paymentAmount: number, reserved: number): number {
  return Math.max(0, paymentAmount - reserved);
}
