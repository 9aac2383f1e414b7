// What the stores' refund feeds do to the ledger, as data shared by every store (issue 16). Pure:
// how a store acts (the stores themselves are listed in lib/orders/store-names.ts), what a stored
// notification did, and the steps a refund asks of an order in a given state.
import type { OrderEvent, OrderState } from "@/lib/orders/machine";
import type { GoodsMove } from "@/lib/orders/move-goods";
import type { StoreName } from "@/lib/orders/store-names";
import type { RefundMeasure } from "@/lib/orders/take-back";

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
  /** The order could not follow and a case was filed for a person (kept for notifications stored before issue 16's reversals and partial refunds). */
  "case-filed",
  /** No order of this tenant was paid by the transaction. */
  "no-order",
  /** Kept, with what it asks of us (a consumption request and its deadline). */
  "recorded",
  /** A type the ledger does not act on. */
  "ignored",
] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

export type StoreEvent = Extract<OrderEvent, "request-refund" | "confirm-refund" | "reject-refund" | "reverse-refund">;

/**
 * One thing a store's fact asks of an order: an event through transit() (the state changes), or
 * goods moved while the state stays (part of the order refunded, or that part given back).
 */
export type StoreStep = { readonly kind: "transit"; readonly event: StoreEvent } | { readonly kind: "goods"; readonly move: GoodsMove };

const transit = (event: StoreEvent): StoreStep => ({ kind: "transit", event });

/**
 * What a store's refund asks of an order in `state`. A full refund (or a partial one that leaves
 * nothing: `partial` null) is request-refund and confirm-refund, whose guard takes every line's goods
 * back under the tenant's rules — or only the confirmation when a refund is already under way. A
 * partial refund takes back just those units and leaves the order where it is. An order that was
 * never paid, is closed or is refunded already has nothing to give back: no step.
 */
export function refundSteps(state: OrderState, partial: RefundMeasure | null = null): readonly StoreStep[] {
  const holdsGoods = state === "paid" || state === "delivering" || state === "delivered" || state === "refunding";
  if (!holdsGoods) return [];
  if (partial) return [{ kind: "goods", move: { kind: "take-back", measure: partial } }];
  return state === "refunding" ? [transit("confirm-refund")] : [transit("request-refund"), transit("confirm-refund")];
}

/** What a store's word that a refund request is declined asks of an order under refund: back where it was. */
export function rejectSteps(state: OrderState): readonly StoreStep[] {
  return state === "refunding" ? [transit("reject-refund")] : [];
}

/**
 * What a store's reversal of its refund asks: a refunded order goes back to where it was with its
 * goods given back (reverse-refund); a refund still under way is rejected; an order that kept its
 * state through a partial refund gets those units back (nothing, if none were taken).
 */
export function reverseSteps(state: OrderState): readonly StoreStep[] {
  if (state === "refunded") return [transit("reverse-refund")];
  if (state === "refunding") return [transit("reject-refund")];
  if (state === "paid" || state === "delivering" || state === "delivered") return [{ kind: "goods", move: { kind: "give-back" } }];
  return [];
}
