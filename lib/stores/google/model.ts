// Google Play's refund feeds, as the ledger reads them (issue 16). Pure: the Pub/Sub push envelope,
// the real-time developer notification inside it, a voided purchase from the Voided Purchases API,
// and what a void asks of an order.
import { z } from "zod";
import type { RefundMeasure } from "@/lib/orders/take-back";
import { storeActor } from "@/lib/stores/model";

export const STORE = "googleplay" as const;
/** How the store is named in order_transitions.actor, grants.actor and audit_events.actor. */
export const STORE_ACTOR = storeActor(STORE);

/** The push Pub/Sub posts: the developer notification is base64 JSON in message.data. */
export const pushBody = z.object({
  message: z.object({
    data: z.string().min(1).max(40_000),
    messageId: z.string().min(1).max(128),
    publishTime: z.string().max(64).optional(),
    attributes: z.record(z.string(), z.string().max(1024)).optional(),
  }),
  subscription: z.string().max(512),
});
export type PushBody = z.output<typeof pushBody>;

/** Milliseconds since the epoch as Google writes them: a decimal string (int64). */
const millis = z.string().regex(/^\d{1,15}$/).transform(Number);

/** A real-time developer notification (DeveloperNotification); unknown fields are kept in the stored payload. */
export const developerNotification = z.object({
  version: z.string().max(16).optional(),
  packageName: z.string().min(1).max(256),
  eventTimeMillis: millis,
  voidedPurchaseNotification: z
    .object({
      purchaseToken: z.string().min(1).max(4096),
      orderId: z.string().min(1).max(256),
      productType: z.number().int().optional(),
      /** 1: the whole purchase; 2: quantity-based partial (how many units, only the Voided Purchases API says). */
      refundType: z.number().int().optional(),
    })
    .optional(),
  oneTimeProductNotification: z.object({}).passthrough().optional(),
  subscriptionNotification: z.object({}).passthrough().optional(),
  testNotification: z.object({}).passthrough().optional(),
});
export type DeveloperNotification = z.output<typeof developerNotification>;

/** One voided purchase from the Voided Purchases API. */
export const voidedPurchase = z.object({
  purchaseToken: z.string().min(1).max(4096),
  orderId: z.string().min(1).max(256),
  purchaseTimeMillis: millis.optional(),
  voidedTimeMillis: millis,
  voidedSource: z.number().int().optional(),
  voidedReason: z.number().int().optional(),
  /** Present only for a quantity-based partial refund: how many units were refunded. */
  voidedQuantity: z.number().int().positive().optional(),
});
export type VoidedPurchase = z.output<typeof voidedPurchase>;

export const voidedPurchasesPage = z.object({
  voidedPurchases: z.array(z.unknown()).max(1000).optional(),
  tokenPagination: z.object({ nextPageToken: z.string().max(4096).optional() }).optional(),
});

/** The type a stored Google notification has (store_notifications.type): which field of the notification was set. */
export type GoogleNotificationType = "VOIDED_PURCHASE" | "ONE_TIME_PRODUCT" | "SUBSCRIPTION" | "TEST" | "UNKNOWN";

export function notificationType(n: DeveloperNotification): GoogleNotificationType {
  if (n.voidedPurchaseNotification) return "VOIDED_PURCHASE";
  if (n.oneTimeProductNotification) return "ONE_TIME_PRODUCT";
  if (n.subscriptionNotification) return "SUBSCRIPTION";
  if (n.testNotification) return "TEST";
  return "UNKNOWN";
}

/** One void, as either feed reports it. */
export interface VoidFact {
  /** The store's id of the report: the push's messageId, or the polled void's orderId and voidedTime. */
  readonly notificationId: string;
  readonly source: "push" | "poll";
  /** Google's orderId: the store order's pay bizKey. */
  readonly orderId: string;
  readonly purchaseToken: string;
  /** When it happened, ms: the push's eventTime, the poll's voidedTime. */
  readonly at: number;
  /** The push says full or partial; the poll says how many units when partial (and nothing when full). */
  readonly refundType: "full" | "partial";
  readonly voidedQuantity: number | null;
}

/** A polled void's id: the same void read again by the next poll is the same notification. */
export function polledVoidId(v: VoidedPurchase): string {
  return `voided:${v.orderId}:${v.voidedTimeMillis}`;
}

export function polledVoid(v: VoidedPurchase): VoidFact {
  return {
    notificationId: polledVoidId(v),
    source: "poll",
    orderId: v.orderId,
    purchaseToken: v.purchaseToken,
    at: v.voidedTimeMillis,
    refundType: v.voidedQuantity === undefined ? "full" : "partial",
    voidedQuantity: v.voidedQuantity ?? null,
  };
}

export function pushedVoid(messageId: string, n: DeveloperNotification, v: NonNullable<DeveloperNotification["voidedPurchaseNotification"]>): VoidFact {
  return {
    notificationId: messageId,
    source: "push",
    orderId: v.orderId,
    purchaseToken: v.purchaseToken,
    at: n.eventTimeMillis,
    // Notifications from before partial refunds existed carry no refundType: they were all full.
    refundType: v.refundType === 2 ? "partial" : "full",
    voidedQuantity: null,
  };
}

/**
 * How much of the order a void gives back: a full refund (null), or a quantity-based partial one of
 * voidedQuantity units of each line. Only the Voided Purchases API says how many units; a pushed
 * partial void says none ("unknown"), and waits for the poll to say it.
 */
export function voidMeasure(fact: VoidFact): RefundMeasure | null | "unknown" {
  if (fact.refundType === "full") return null;
  return fact.voidedQuantity === null ? "unknown" : { kind: "units", units: fact.voidedQuantity };
}

/**
 * The bizKey a void moves the order under. A full void is one fact however it reaches us (push or
 * poll): keyed by the order. A partial one acts only from the poll, once per void read: keyed by it.
 */
export function voidBizKey(fact: VoidFact, measure: RefundMeasure | null): string {
  return measure === null ? `googleplay:void:${fact.orderId}` : `googleplay:${fact.notificationId}`;
}
