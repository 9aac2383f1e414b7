// App Store Server Notifications V2, as the ledger reads them (issue 16). Pure: the payload shapes,
// the ordering rule and what the latest refund fact asks of an order, as data.
import { z } from "zod";
import type { OrderState } from "@/lib/orders/machine";
import { refundSteps, rejectSteps, storeActor, type StoreStep } from "@/lib/stores/model";

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
 * What the latest refund fact asks of an order in `state`. REFUND takes the order through
 * request-refund and confirm-refund (whose guard writes the per-line reversals); REFUND_DECLINED and
 * REFUND_REVERSED put a refunding order back where it was. A reversal after the order was refunded
 * cannot be followed — refunded is terminal in the state machine (DESIGN.md) — so it becomes a case.
 * Anything else already agrees, or cannot take a refund (never paid, closed): no step.
 */
export function stepsFor(signal: RefundSignal, state: OrderState): readonly StoreStep[] {
  switch (signal) {
    case "REFUND":
      return refundSteps(state);
    case "REFUND_DECLINED":
      return rejectSteps(state);
    case "REFUND_REVERSED":
      return state === "refunded" ? [{ kind: "case" }] : rejectSteps(state);
  }
}
