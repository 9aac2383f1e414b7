// Where a channel refund stands, derived once from the facts (issue 29): did its `refund.requested`
// message reach the channel, is it still on its way, or will it never leave — and why. The case's
// words, its controls, the actions' judgement, the queue and the overview all read this one
// function, so none of them can say "with the payment channel" of a request that never left.
// Pure.
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import type { RequestProblem } from "@/lib/problems";
import { isPending } from "@/lib/refunds/model";
import { callFailure, type CallFailure } from "./explain";
import type { CaseRefund } from "./facts";

/** Why a refund request has not reached the channel and will not by itself. */
export type NotSentWhy =
  /** The product has no webhook: the relay noted "no webhook configured" (or will) and sent nothing. */
  | { readonly kind: "no-webhook" }
  /** The webhook failed on every allowed attempt: the message is dead. */
  | { readonly kind: "gave-up"; readonly attempts: number; readonly failure: CallFailure | null }
  /** No request was ever queued for it (a row written by hand, or by an older version). */
  | { readonly kind: "no-message" };

export type RefundReach =
  /** The channel answered: confirmed or failed (the refund's status says which). */
  | { readonly kind: "answered" }
  /** The channel has it and owes an answer: through the webhook, or a person told it another way. */
  | { readonly kind: "with-channel"; readonly via: "webhook" }
  | { readonly kind: "with-channel"; readonly via: "other"; readonly by: string; readonly reason: string; readonly at: string }
  /** The relay still has it: not yet tried, or tried and failed with attempts left. */
  | { readonly kind: "on-its-way"; readonly attempts: number; readonly failure: CallFailure | null }
  | { readonly kind: "not-sent"; readonly why: NotSentWhy };

/**
 * `webhookSet`: whether the product has a webhook now. A message still pending while there is none
 * will be noted "no webhook configured" by the relay and never sent, so it is not-sent already.
 */
export function refundReach(refund: CaseRefund, webhookSet: boolean): RefundReach {
  if (!isPending(refund.status)) return { kind: "answered" };
  if (refund.status === "sent") {
    return refund.told ? { kind: "with-channel", via: "other", by: refund.told.actor, reason: refund.told.reason, at: refund.told.at } : { kind: "with-channel", via: "webhook" };
  }
  const m = refund.message;
  if (m === null) return { kind: "not-sent", why: { kind: "no-message" } };
  switch (m.status) {
    case "delivered":
      // Delivered without the note: the channel has it (its `sent` is being recorded in the same
      // transaction as the delivery, or the channel answered first).
      return m.lastError === NO_WEBHOOK ? { kind: "not-sent", why: { kind: "no-webhook" } } : { kind: "with-channel", via: "webhook" };
    case "dead":
      return { kind: "not-sent", why: { kind: "gave-up", attempts: m.attempts, failure: callFailure(m.lastError) } };
    case "pending":
      if (!webhookSet) return { kind: "not-sent", why: { kind: "no-webhook" } };
      return { kind: "on-its-way", attempts: m.attempts, failure: callFailure(m.lastError) };
  }
}

/** What a person can do about a refund that has not reached the channel. */
export interface RefundControls {
  readonly refundId: string;
  /**
   * Send the request again: `ready` when a webhook can carry it now; `needs-webhook` while the
   * product has none (configure it first); null when a resend is not the way (it is on its way).
   */
  readonly resend: "ready" | "needs-webhook" | null;
  /** With `needs-webhook`, when the viewer may set the product's webhook (settings:edit): the case links to it. */
  readonly configureWebhook?: true;
  /** Record, with a reason, that the channel was told another way (its portal, a call). */
  readonly recordTold: boolean;
}

/** The refund of the case still waiting on the channel, if any (one at a time: offers stop while one is). */
export function pendingRefundOf(refunds: readonly CaseRefund[]): CaseRefund | null {
  return refunds.find((r) => isPending(r.status)) ?? null;
}

/**
 * The actions a refund's reach allows: resend and record-told while it has not left; record-told
 * also while the relay keeps failing (a person may reach the channel sooner another way). Nothing
 * once the channel has it.
 */
export function refundControls(refund: CaseRefund, webhookSet: boolean): RefundControls | null {
  const reach = refundReach(refund, webhookSet);
  if (reach.kind === "not-sent") return { refundId: refund.refundId, resend: webhookSet ? "ready" : "needs-webhook", recordTold: true };
  if (reach.kind === "on-its-way" && reach.failure !== null) return { refundId: refund.refundId, resend: null, recordTold: true };
  return null;
}

/** Why nothing else can be done with the case while its refund is pending, in the words of where it stands. */
export function pendingRefundProblem(refund: CaseRefund, webhookSet: boolean): RequestProblem {
  const reach = refundReach(refund, webhookSet);
  switch (reach.kind) {
    case "not-sent":
      return { kind: "case-refund-not-sent", refundId: refund.refundId, why: reach.why.kind };
    case "on-its-way":
      return { kind: "case-refund-sending", refundId: refund.refundId };
    case "with-channel":
    case "answered":
      return { kind: "case-awaiting-refund", refundId: refund.refundId };
  }
}
