// App Store Server Notifications V2, as the ledger reads them (issue 16). Pure: the payload shapes,
// the ordering rule and what the latest refund fact asks of an order, as data.
import { z } from "zod";
import type { OrderState } from "@/lib/orders/machine";
import type { RefundMeasure } from "@/lib/orders/take-back";
import { refundSteps, rejectSteps, reverseSteps, storeActor, type StoreStep } from "@/lib/stores/model";

export const STORE = "appstore" as const;
/** How the store is named in order_transitions.actor and grants.actor. */
export const STORE_ACTOR = storeActor(STORE);
/** Apple answers a consumption request's refund review only if we answer within 12 hours. */
export const CONSUMPTION_DEADLINE_MS = 12 * 3_600_000;

export const REFUND_SIGNALS = ["REFUND", "REFUND_DECLINED", "REFUND_REVERSED"] as const;
export type RefundSignal = (typeof REFUND_SIGNALS)[number];

export function isRefundSignal(type: string): type is RefundSignal {
  return (REFUND_SIGNALS as readonly string[]).includes(type);
}

/** The body Apple posts. */
export const notificationBody = z.object({ signedPayload: z.string().min(1).max(60_000) });

/** The verified notification payload (responseBodyV2DecodedPayload); unknown fields are kept in the stored payload. */
export const notificationPayload = z.object({
  notificationType: z.string().min(1).max(64),
  subtype: z.string().max(64).optional(),
  notificationUUID: z.string().min(1).max(128),
  version: z.string().max(16).optional(),
  signedDate: z.number().int().positive(),
  data: z
    .object({
      bundleId: z.string().max(256).optional(),
      environment: z.string().max(32).optional(),
      signedTransactionInfo: z.string().max(30_000).optional(),
      consumptionRequestReason: z.string().max(64).optional(),
    })
    .optional(),
  /** Notifications about many subscribers at once (RENEWAL_EXTENSION) carry their app here instead of in data. */
  summary: z.object({ bundleId: z.string().max(256).optional(), environment: z.string().max(32).optional() }).optional(),
});
export type NotificationPayload = z.output<typeof notificationPayload>;

/** The verified transaction inside a notification (JWSTransactionDecodedPayload). */
export const transactionPayload = z.object({
  transactionId: z.string().min(1).max(64),
  originalTransactionId: z.string().min(1).max(64),
  bundleId: z.string().max(256),
  productId: z.string().max(256).optional(),
  quantity: z.number().int().optional(),
  environment: z.string().max(32).optional(),
  signedDate: z.number().int().optional(),
  revocationDate: z.number().int().optional(),
  revocationReason: z.number().int().optional(),
  /** REFUND_FULL, REFUND_PRORATED or FAMILY_REVOKE; a prorated refund's share is in revocationPercentage. */
  revocationType: z.string().max(32).optional(),
  /** Milliunits of a percent of the whole quantity refunded: 33333 is a third. */
  revocationPercentage: z.number().int().min(0).max(100_000).optional(),
  /** The app's UUID for the player's account, when it set one: a refund review's answer carries it back. */
  appAccountToken: z.string().max(64).optional(),
});
export type TransactionPayload = z.output<typeof transactionPayload>;

/** One refund fact of a transaction, as stored. */
export interface SignalFact {
  readonly type: RefundSignal;
  readonly signedAt: number;
  readonly notificationId: string;
}

/** Equal signedDates are broken by what is most final, then by id: any arrival order picks the same one. */
const RANK: Readonly<Record<RefundSignal, number>> = { REFUND_DECLINED: 1, REFUND: 2, REFUND_REVERSED: 3 };

function later(a: SignalFact, b: SignalFact): boolean {
  if (a.signedAt !== b.signedAt) return a.signedAt > b.signedAt;
  if (RANK[a.type] !== RANK[b.type]) return RANK[a.type] > RANK[b.type];
  return a.notificationId > b.notificationId;
}

/**
 * The ordering rule: of a transaction's refund facts, the one signed last is the truth, whatever
 * order they arrived in. A REFUND signed before a REFUND_REVERSED that reaches us after it is stale.
 */
export function latestSignal(facts: readonly SignalFact[]): SignalFact | null {
  let latest: SignalFact | null = null;
  for (const fact of facts) if (latest === null || later(fact, latest)) latest = fact;
  return latest;
}

/**
 * How much of the purchase a REFUND gives back: a prorated refund (revocationType REFUND_PRORATED)
 * says its share in revocationPercentage (milliunits of a percent, for the whole quantity); anything
 * else is a full refund (null).
 */
export function refundMeasure(txn: Pick<TransactionPayload, "revocationType" | "revocationPercentage"> | null): RefundMeasure | null {
  if (txn?.revocationType !== "REFUND_PRORATED" || txn.revocationPercentage === undefined || txn.revocationPercentage >= 100_000) return null;
  return { kind: "share", milliPercent: txn.revocationPercentage };
}

/**
 * What the latest refund fact asks of an order in `state`. REFUND takes the order through
 * request-refund and confirm-refund (whose guard takes the goods back under the tenant's rules), or
 * for a prorated refund takes back only that share of each line; REFUND_DECLINED puts a refunding
 * order back where it was; REFUND_REVERSED gives back what the refund took — a refunded order goes
 * back to where it was (reverse-refund). Anything else already agrees, or cannot take a refund
 * (never paid, closed): no step.
 */
export function stepsFor(signal: RefundSignal, state: OrderState, partial: RefundMeasure | null = null): readonly StoreStep[] {
  switch (signal) {
    case "REFUND":
      return refundSteps(state, partial);
    case "REFUND_DECLINED":
      return rejectSteps(state);
    case "REFUND_REVERSED":
      return reverseSteps(state);
  }
}
