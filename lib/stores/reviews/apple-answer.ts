// The answer to Apple's CONSUMPTION_REQUEST, prefilled from the ledger (issue 16, item 5). Pure.
//
// Field names and values are Apple's ConsumptionRequest as documented for the App Store Server API's
// "Send Consumption Information" (PUT /inApps/v1/transactions/consumption/{transactionId}): integer
// enums, 0 meaning "undeclared". We declare only what the ledger knows and leave the rest at 0 rather
// than guess: an answer is evidence a store weighs, and a wrong one is worse than none.

/** deliveryStatus */
export const DELIVERY_STATUS = {
  DELIVERED_AND_WORKING_PROPERLY: 0,
  DID_NOT_DELIVER_DUE_TO_QUALITY_ISSUE: 1,
  DELIVERED_WRONG_ITEM: 2,
  DID_NOT_DELIVER_DUE_TO_SERVER_OUTAGE: 3,
  DID_NOT_DELIVER_DUE_TO_IN_GAME_CURRENCY_CHANGE: 4,
  DID_NOT_DELIVER_FOR_OTHER_REASON: 5,
} as const;
/** consumptionStatus */
export const CONSUMPTION_STATUS = { UNDECLARED: 0, NOT_CONSUMED: 1, PARTIALLY_CONSUMED: 2, FULLY_CONSUMED: 3 } as const;
/** platform */
export const PLATFORM = { UNDECLARED: 0, APPLE: 1, NON_APPLE: 2 } as const;
/** playTime: 0 undeclared, then 0–5 min, 5–60 min, 1–6 h, 6–24 h, 1–4 d, 4–16 d, over 16 d. */
export const PLAY_TIME_UNDECLARED = 0;
/** accountTenure: 0 undeclared, then 0–3, 3–10, 10–30, 30–90, 90–180, 180–365 and over 365 days. */
export const ACCOUNT_TENURE_DAYS = [3, 10, 30, 90, 180, 365] as const;
/** lifetimeDollarsPurchased and lifetimeDollarsRefunded: 0 undeclared, 1 $0, then up to $49.99, $99.99, $499.99, $999.99, $1999.99, more. */
export const LIFETIME_DOLLAR_CENTS = [5_000, 10_000, 50_000, 100_000, 200_000] as const;
/** userStatus */
export const USER_STATUS = { UNDECLARED: 0, ACTIVE: 1, SUSPENDED: 2, TERMINATED: 3, LIMITED_ACCESS: 4 } as const;
/** refundPreference (of the V1 request) */
export const REFUND_PREFERENCE = { UNDECLARED: 0, PREFER_GRANT: 1, PREFER_DECLINE: 2, NO_PREFERENCE: 3 } as const;

type ValueOf<T> = T[keyof T];
export type DeliveryStatus = ValueOf<typeof DELIVERY_STATUS>;
export type RefundPreference = ValueOf<typeof REFUND_PREFERENCE>;
/** 0–7, as bucketed above. */
export type Bucket = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The request body, field for field. */
export interface AppleConsumptionAnswer {
  readonly customerConsented: boolean;
  readonly consumptionStatus: ValueOf<typeof CONSUMPTION_STATUS>;
  readonly platform: ValueOf<typeof PLATFORM>;
  readonly sampleContentProvided: boolean;
  readonly deliveryStatus: DeliveryStatus;
  /** The app's UUID for the player's account, or "" when the purchase carried none. */
  readonly appAccountToken: string;
  readonly accountTenure: Bucket;
  readonly playTime: Bucket;
  readonly lifetimeDollarsRefunded: Bucket;
  readonly lifetimeDollarsPurchased: Bucket;
  readonly userStatus: ValueOf<typeof USER_STATUS>;
  readonly refundPreference: RefundPreference;
}

/** What the ledger knows about the request's order and its player. */
export interface ReviewFacts {
  /** The order's lines with what the ledger granted for each (reversals later do not undo a delivery). */
  readonly lines: readonly { readonly sku: string; readonly quantity: number; readonly delivered: number }[];
  /** The order has an open delivery-failed case: our calls to the game's grant endpoint failed. */
  readonly deliveryFailed: boolean;
  /** The player's lifetime money in this product, per currency, in minor units (lib/players). */
  readonly money: readonly { readonly currency: string; readonly paid: number; readonly refunded: number }[];
  readonly firstOrderAt: Date | null;
  /** The transaction's appAccountToken, when the app set one. */
  readonly accountToken: string | null;
  /** When the store asked (its signedDate): tenure is counted up to then. */
  readonly requestedAt: Date;
}

/** Whether every line was granted in full: Apple's "delivered and working properly" as far as we can know. */
export function deliveryStatusOf(facts: Pick<ReviewFacts, "lines" | "deliveryFailed">): DeliveryStatus {
  if (facts.lines.length > 0 && facts.lines.every((l) => l.delivered >= l.quantity)) return DELIVERY_STATUS.DELIVERED_AND_WORKING_PROPERLY;
  return facts.deliveryFailed ? DELIVERY_STATUS.DID_NOT_DELIVER_DUE_TO_SERVER_OUTAGE : DELIVERY_STATUS.DID_NOT_DELIVER_FOR_OTHER_REASON;
}

/**
 * A lifetime amount as Apple's dollar bucket. Only US dollars can be placed without an exchange rate
 * we do not keep, so any other currency with money in it is undeclared (0); zero, in any currency, is
 * $0 (1). No figures at all (no order of the player is known) is undeclared too.
 */
export function lifetimeDollars(amounts: readonly { readonly currency: string; readonly amount: number }[]): Bucket {
  if (amounts.length === 0) return 0;
  const held = amounts.filter((a) => a.amount > 0);
  if (held.length === 0) return 1;
  if (held.some((a) => a.currency !== "USD")) return 0;
  const cents = held.reduce((sum, a) => sum + a.amount, 0);
  return (2 + LIFETIME_DOLLAR_CENTS.filter((limit) => cents >= limit).length) as Bucket;
}

const DAY_MS = 86_400_000;

/** How long the player has been a customer here, from their first order to the request. */
export function accountTenure(firstOrderAt: Date | null, requestedAt: Date): Bucket {
  if (!firstOrderAt) return 0;
  const days = Math.max(0, requestedAt.getTime() - firstOrderAt.getTime()) / DAY_MS;
  return (1 + ACCOUNT_TENURE_DAYS.filter((limit) => days >= limit).length) as Bucket;
}

/**
 * The answer as the ledger would give it. `customerConsented` is the one fact the ledger cannot
 * know (the app asks the player): it comes from the agent, or from the tenant's opt-in to automatic
 * answers. The refund preference follows delivery: goods we never delivered should be refunded;
 * for delivered goods we state no preference and let the facts speak (an agent may choose otherwise).
 */
export function prefillAppleAnswer(facts: ReviewFacts, customerConsented: boolean): AppleConsumptionAnswer {
  const deliveryStatus = deliveryStatusOf(facts);
  return {
    customerConsented,
    // The ledger records what was granted, not what the player spent in the game.
    consumptionStatus: CONSUMPTION_STATUS.UNDECLARED,
    platform: PLATFORM.APPLE,
    sampleContentProvided: false,
    deliveryStatus,
    appAccountToken: facts.accountToken ?? "",
    accountTenure: accountTenure(facts.firstOrderAt, facts.requestedAt),
    playTime: PLAY_TIME_UNDECLARED,
    lifetimeDollarsRefunded: lifetimeDollars(facts.money.map((m) => ({ currency: m.currency, amount: m.refunded }))),
    lifetimeDollarsPurchased: lifetimeDollars(facts.money.map((m) => ({ currency: m.currency, amount: m.paid }))),
    // Whether the account is suspended or banned lives in the game, not in the ledger.
    userStatus: USER_STATUS.UNDECLARED,
    refundPreference: deliveryStatus === DELIVERY_STATUS.DELIVERED_AND_WORKING_PROPERLY ? REFUND_PREFERENCE.NO_PREFERENCE : REFUND_PREFERENCE.PREFER_GRANT,
  };
}

/** Where an answer to Apple goes: Apple's production or sandbox host, or `baseUrl` (a local fake in tests and the demo). */
export function appleAnswerUrl(transactionId: string, environment: string | null, baseUrl: string | undefined): string {
  const base = baseUrl || (environment === "Sandbox" ? "https://api.storekit-sandbox.itunes.apple.com" : "https://api.storekit.itunes.apple.com");
  return `${base.replace(/\/+$/, "")}/inApps/v1/transactions/consumption/${encodeURIComponent(transactionId)}`;
}
