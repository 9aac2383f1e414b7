// What the console knows about one case when it shows it: the exception row, the order it is about,
// the transition that explains it, the lines (for goods), and the refunds of its payment. Read by
// lib/cases/queries/case-select.ts (one statement for the queue and the order page); judged by the
// pure explain.ts and offers.ts. Plain JSON (times as ISO strings): the queue polls it.
import type { OrderEvent, OrderState, Source } from "@/lib/orders/machine";
import type { TakeBackStatus } from "@/lib/orders/take-back";
import type { RefundStatus } from "@/lib/refunds/model";
import type { CaseStatus } from "./model";

export interface CaseOrder {
  readonly orderNo: string;
  readonly state: OrderState;
  readonly amount: number;
  readonly currency: string;
  readonly playerId: string;
}

/**
 * The transition that explains a money case: the close before a late payment, the confirmed refund
 * before a payment after refund, the payment the order already had before a second one, or (amount
 * mismatch) the payment that accepted this very transaction.
 */
export interface CaseRelated {
  readonly event: OrderEvent;
  readonly bizKey: string;
  readonly source: Source;
  readonly actor: string;
  readonly at: string;
}

export interface CaseLine {
  readonly sku: string;
  readonly kind: string;
  readonly expected: number;
  readonly granted: number;
  readonly pending: number;
}

/**
 * The newest `refund.requested` outbox message of a refund (a resend writes a new one): whether the
 * request left, is still trying, or never will. `lastError` is the relay's note (NO_WEBHOOK when the
 * product had no webhook, so nothing was sent).
 */
export interface CaseRefundMessage {
  readonly id: number;
  readonly status: "pending" | "delivered" | "dead";
  readonly attempts: number;
  readonly lastError: string | null;
}

/** A person recorded that the channel was told of the refund another way (lib/cases/refund-actions.ts). */
export interface CaseRefundTold {
  readonly actor: string;
  readonly reason: string;
  readonly at: string;
}

export interface CaseRefund {
  readonly refundId: string;
  readonly amount: number;
  readonly status: RefundStatus;
  readonly channelRef: string | null;
  readonly requestedBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly message: CaseRefundMessage | null;
  readonly told: CaseRefundTold | null;
}

/**
 * The take_backs row behind a take-back-failed case, as it is now (the case's detail is the row as
 * it was when it failed): a retry is offered only while it is `failed`.
 */
export interface CaseTakeBack {
  readonly id: number;
  readonly status: TakeBackStatus;
  /** The endpoint its call goes to: revoke for a take (negative units), grant for a give-back. */
  readonly endpoint: "revoke" | "grant";
  /**
   * Whether the tenant can be called for it: that endpoint and a signing secret are set. Without
   * them a retry fails again at once.
   */
  readonly endpointSet: boolean;
  /** Every call made for it so far, across retries (a retry starts the row's own count afresh). */
  readonly attempts: number;
  /** The latest failure's error, until an attempt succeeds (null then, or before any failure). */
  readonly lastError: string | null;
}

export interface CaseFacts {
  readonly id: number;
  readonly tenantId: string;
  readonly orderId: number | null;
  readonly kind: string;
  readonly event: string | null;
  /** The fact that made it unique: the channel's transaction id for payments. */
  readonly bizKey: string;
  /** What the channel said was paid, in minor units. */
  readonly amount: number | null;
  readonly currency: string;
  readonly detail: Readonly<Record<string, unknown>>;
  /** Who reported the fact that was refused. */
  readonly actor: string;
  readonly status: CaseStatus;
  readonly owner: string | null;
  readonly takenAt: string | null;
  readonly createdAt: string;
  readonly slaDueAt: string;
  readonly ageSeconds: number;
  /** Until the SLA's due time; negative once overdue. */
  readonly dueInSeconds: number;
  readonly resolution: string | null;
  readonly resolutionRef: string | null;
  readonly resolvedReason: string | null;
  readonly resolvedAt: string | null;
  readonly resolvedBy: string | null;
  readonly order: CaseOrder | null;
  readonly related: CaseRelated | null;
  /** Goods cases only: each line of the order with what the ledger holds. */
  readonly lines: readonly CaseLine[] | null;
  /** This case's refunds, oldest first. */
  readonly refunds: readonly CaseRefund[];
  /** What every refund of the payment (this case's or not) holds, failed ones aside. */
  readonly reservedOfPayment: number;
  /** take-back-failed cases only (null otherwise, or if the row is gone). */
  readonly takeBack: CaseTakeBack | null;
  /** Whether the product has a webhook now (a URL and a signing secret): what carries a refund request to the channel. */
  readonly webhookSet: boolean;
}
