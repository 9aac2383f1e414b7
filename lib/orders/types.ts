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

/** Kinds of order_exceptions rows: facts (usually money) the ledger could not apply. */
export const EXCEPTION_KINDS = [
  "amount-mismatch",
  "payment-after-close",
  "payment-after-refund",
  "second-payment",
  "delivery-incomplete",
  "reversal-impossible",
  "delivery-failed",
] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

export const ORDER_COLUMNS = `id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version`;
export const TRANSITION_COLUMNS = `id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at"`;
