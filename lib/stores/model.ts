// What the stores' refund feeds do to the ledger, as data shared by every store (issue 16). Pure:
// the stores we take notifications from, what a stored notification did, and the steps a refund asks
// of an order in a given state.
import type { OrderEvent, OrderState } from "@/lib/orders/machine";

export const STORES = ["appstore", "googleplay"] as const;
export type StoreName = (typeof STORES)[number];

/** How a store is named in order_transitions.actor, grants.actor and audit_events.actor. */
export function storeActor(store: StoreName): `store:${StoreName}` {
  return `store:${store}`;
}

/** What a stored notification did (store_notifications.outcome; the migrations' CHECK says the same). */
export const NOTIFICATION_OUTCOMES = [
  /** It moved the order. */
  "applied",
  /** A later refund fact of the same transaction is already known: this one must not win. */
  "superseded",
  /** It is the latest fact, and the order already agrees with it. */
  "unchanged",
  /** transit() refused a step (the order's state or a guard): why is in detail. */
  "refused",
  /** The order cannot follow (a reversed refund, a partial refund): a case for a person. */
  "case-filed",
  /** No order of this tenant was paid by the transaction. */
  "no-order",
  /** Kept, with what it asks of us (a consumption request and its deadline). */
  "recorded",
  /** A type the ledger does not act on. */
  "ignored",
] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

export type RefundEvent = Extract<OrderEvent, "request-refund" | "confirm-refund" | "reject-refund">;
export type StoreStep = { readonly kind: "transit"; readonly event: RefundEvent } | { readonly kind: "case" };

const transit = (event: RefundEvent): StoreStep => ({ kind: "transit", event });

/**
 * What a store's (full) refund asks of an order in `state`: request-refund and confirm-refund (whose
 * guard writes the per-line reversals), or only the confirmation when a refund is already under way.
 * An order that was never paid, is closed or is refunded already has nothing to give back: no step.
 */
export function refundSteps(state: OrderState): readonly StoreStep[] {
  if (state === "paid" || state === "delivering" || state === "delivered") return [transit("request-refund"), transit("confirm-refund")];
  if (state === "refunding") return [transit("confirm-refund")];
  return [];
}

/** What a store's word that a refund is off (declined, reversed) asks of an order under refund: back where it was. */
export function rejectSteps(state: OrderState): readonly StoreStep[] {
  return state === "refunding" ? [transit("reject-refund")] : [];
}
