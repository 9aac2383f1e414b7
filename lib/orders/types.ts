import type { OrderEvent, OrderState, Source } from "./machine";

/** An order row as the domain functions return it. */
export interface OrderSnapshot {
  readonly id: number;
  readonly tenantId: string;
  readonly orderNo: string;
  readonly playerId: string;
  readonly amount: number;
  readonly currency: string;
  readonly state: OrderState;
  readonly stateAt: Date;
  readonly version: number;
}

export interface TransitionRecord {
  readonly id: number;
  readonly event: OrderEvent;
  readonly from: OrderState;
  readonly to: OrderState;
  readonly bizKey: string;
  readonly actor: string;
  readonly source: Source;
  readonly reason: string | null;
  readonly at: Date;
}

/** One row of the grants ledger: a delivery on a line, or (negative) a refund's reversal. */
export interface GrantRecord {
  readonly id: number;
  readonly sku: string;
  readonly grantId: string;
  readonly quantity: number;
  readonly source: string;
  readonly actor: string;
  readonly reason: string | null;
  readonly at: Date;
}

/** Kinds of order_exceptions rows: facts (usually money) the ledger could not apply. */
export const EXCEPTION_KINDS = [
  "amount-mismatch",
  "payment-after-close",
  "payment-after-refund",
  "second-payment",
  "delivery-incomplete",
  "reversal-impossible",
  "delivery-failed",
  /** The store reversed a refund after the order was refunded (terminal): the goods are the player's again. */
  "store-refund-reversed",
  /** The store refunded part of a line (Google's voidedQuantity): the ledger cannot yet take back part of a line, a person does. */
  "store-partial-refund",
  /**
   * A take_backs row (rule revoke) became `failed`: the game was never told to take the goods back
   * (or to give them back after a store reversed its refund). bizKey `take-back:<take_backs.id>`.
   */
  "take-back-failed",
] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];
