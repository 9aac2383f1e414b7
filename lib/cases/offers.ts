// Which ways out of a case are possible now, and which of them the viewer may take. Pure: the queue
// and the order page offer exactly these, and the actions refuse anything else with the same
// judgement (lib/cases/resolve.ts reads the facts under the case's lock and asks again).
import { can, ROLES, type Role } from "@/lib/auth/permissions";
import { GRANTABLE_STATES } from "@/lib/orders/grant-decision";
import type { RequestProblem } from "@/lib/problems";
import { refundable } from "@/lib/refunds/model";
import type { CaseFacts } from "./facts";
import { isActive, isExceptionKind, isUnrecordedGrant, kindClass, type ChosenResolution } from "./model";
import { pendingRefundOf, pendingRefundProblem, refundControls, type RefundControls } from "./refund-reach";

export type CaseOffer =
  /** Give the whole (remaining) payment back at the channel. */
  | { readonly kind: "refund"; readonly amount: number; readonly currency: string }
  /** Overpaid: the order takes what it costs, the channel gives back the rest. */
  | { readonly kind: "accept-and-refund-difference"; readonly amount: number; readonly currency: string }
  /** Paid after close: a new order for the same player and lines, paid by this payment. */
  | { readonly kind: "honour" }
  | { readonly kind: "repair" }
  | { readonly kind: "compensate"; readonly lines: readonly { readonly sku: string; readonly quantity: number }[] }
  /**
   * A failed take-back owed to the game again: the worker calls `endpoint` afresh and resolves the
   * case when it goes through. `endpointSet` false: the tenant has no such endpoint, so the call
   * fails again at once unless one is set in Settings first.
   */
  | { readonly kind: "retry-take-back"; readonly endpoint: "revoke" | "grant"; readonly endpointSet: boolean }
  | { readonly kind: "dismiss" };

export type OfferKind = CaseOffer["kind"];

export interface Viewer {
  readonly actor: string;
  readonly role: Role;
}

/** The case's payment: a transaction id and an amount, when it is about money that arrived. */
function payment(c: CaseFacts): { amount: number; txn: string } | null {
  const money = isExceptionKind(c.kind) && kindClass(c.kind) === "money";
  return money && c.amount !== null && c.bizKey !== "" ? { amount: c.amount, txn: c.bizKey } : null;
}

/** A refund of this case the channel has not answered yet. */
export function pendingRefund(c: CaseFacts): string | null {
  return pendingRefundOf(c.refunds)?.refundId ?? null;
}

/** Every way out that is legal now, whoever asks. */
export function legalOffers(c: CaseFacts): CaseOffer[] {
  if (!isActive(c.status) || !isExceptionKind(c.kind) || pendingRefund(c) !== null) return [];
  const offers: CaseOffer[] = [];
  const paid = payment(c);
  const left = paid ? refundable(paid.amount, c.reservedOfPayment) : 0;
  const order = c.order;
  switch (c.kind) {
    case "payment-after-close":
      if (left > 0) offers.push({ kind: "refund", amount: left, currency: c.currency });
      // The whole payment, for the order's exact price, never partly refunded already.
      if (paid && order && order.state === "closed" && order.amount === paid.amount && order.currency === c.currency && c.reservedOfPayment === 0) {
        offers.push({ kind: "honour" });
      }
      break;
    case "payment-after-refund":
    case "second-payment":
      if (left > 0) offers.push({ kind: "refund", amount: left, currency: c.currency });
      break;
    case "amount-mismatch": {
      // `related` is the pay transition of this very transaction: the overpayment was accepted.
      const accepted = c.related !== null;
      if (paid && order && paid.amount > order.amount && (order.state === "created" || accepted)) {
        const difference = paid.amount - order.amount;
        if (left >= difference) offers.push({ kind: "accept-and-refund-difference", amount: difference, currency: c.currency });
      }
      // Once the order took this money, giving all of it back would leave it paid for nothing.
      if (!accepted && left > 0) offers.push({ kind: "refund", amount: left, currency: c.currency });
      break;
    }
    case "delivery-incomplete":
    case "delivery-failed": {
      if (isUnrecordedGrant(c.kind, c.bizKey) || !order || !GRANTABLE_STATES.includes(order.state)) break;
      const pending = (c.lines ?? []).filter((l) => l.pending > 0);
      if (pending.length === 0) break;
      offers.push({ kind: "repair" });
      offers.push({ kind: "compensate", lines: pending.map((l) => ({ sku: l.sku, quantity: l.pending })) });
      break;
    }
    // Only while the row is failed: a pending one is already owed (a retry would call twice), a done
    // one closes the case by itself.
    case "take-back-failed":
      if (c.takeBack?.status === "failed") offers.push({ kind: "retry-take-back", endpoint: c.takeBack.endpoint, endpointSet: c.takeBack.endpointSet });
      break;
    // The goods are moved in the game by hand: a person can only dismiss, saying what was done.
    case "reversal-impossible":
    case "store-refund-reversed":
    case "store-partial-refund":
      break;
  }
  offers.push({ kind: "dismiss" });
  return offers;
}

/** Why the viewer may not work this case at all, if so: someone else has it, or it is over. */
export function blockedFor(c: CaseFacts, viewer: Viewer): RequestProblem | null {
  if (c.status === "resolved" || c.status === "dismissed") return { kind: "case-closed", status: c.status, by: c.resolvedBy && personOf(c.resolvedBy) };
  if (c.owner !== null && c.owner !== viewer.actor && !can(viewer.role, "cases:override")) return { kind: "case-taken", owner: personOf(c.owner) };
  const refund = pendingRefundOf(c.refunds);
  if (refund !== null) return pendingRefundProblem(refund, c.webhookSet);
  return null;
}

/** May this viewer choose this way out (the permission table's say, by kind of case)? */
export function allowedFor(c: CaseFacts, offer: OfferKind, role: Role): boolean {
  if (!can(role, "cases:work")) return false;
  if (offer === "dismiss" && isExceptionKind(c.kind) && kindClass(c.kind) === "money") return can(role, "cases:dismiss-money");
  return true;
}

export interface CaseControls {
  readonly take: boolean;
  readonly assign: boolean;
  readonly offers: readonly CaseOffer[];
  /** What can be done about the case's refund that has not reached the channel (resend, record told). */
  readonly refund: RefundControls | null;
  /**
   * Why the offers are empty, when someone or something holds the case — or the viewer's role does
   * not work cases at all (then it says who does, rather than leaving an empty cell).
   */
  readonly blocked: RequestProblem | null;
}

/** The roles that work cases, from the permission table: who a viewer without it is told to ask. */
export const CASE_WORKERS: readonly Role[] = ROLES.filter((r) => can(r, "cases:work"));

/** What the viewer can do with the case, for the queue's and the order page's buttons. */
export function caseControls(c: CaseFacts, viewer: Viewer): CaseControls {
  const active = isActive(c.status);
  if (!can(viewer.role, "cases:work")) {
    return { take: false, assign: false, offers: [], refund: null, blocked: active ? { kind: "cases-not-for-role", roles: CASE_WORKERS } : null };
  }
  const blocked = blockedFor(c, viewer);
  const pending = pendingRefundOf(c.refunds);
  // The refund's own actions follow the same rule as the offers: whoever may work the case now.
  const mayWork = active && (c.owner === null || c.owner === viewer.actor || can(viewer.role, "cases:override"));
  return {
    take: active && c.owner !== viewer.actor && (c.owner === null || can(viewer.role, "cases:override")),
    assign: active,
    offers: blocked === null ? legalOffers(c).filter((o) => allowedFor(c, o.kind, viewer.role)) : [],
    refund: mayWork && pending !== null ? withWebhookLink(refundControls(pending, c.webhookSet), viewer.role) : null,
    blocked,
  };
}

/** A refund waiting for a webhook links to the product's webhook setting, for those who may set it. */
function withWebhookLink(controls: RefundControls | null, role: Role): RefundControls | null {
  return controls?.resend === "needs-webhook" && can(role, "settings:edit") ? { ...controls, configureWebhook: true } : controls;
}

/** How people are named in problems and on screen: "staff:ann@example.com" → "ann@example.com". */
export function personOf(actor: string): string {
  return actor.startsWith("staff:") ? actor.slice("staff:".length) : actor;
}

export function isChosen(offer: OfferKind): offer is ChosenResolution {
  return offer !== "dismiss";
}
