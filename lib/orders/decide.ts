// What one event does to one order, decided from facts read under the order's row lock: DESIGN.md's
// transit steps 2, 3 and 5 (duplicate, stale, illegal, guard) as a pure function. It returns the
// outcome and, when the event applies, its effects as data — the transition to record, the state to
// move to, the outbox message, the ledger reversals — or, when it is refused, why (a Refusal) and the
// exception to file for ops. transit() and transitBatch() only read the facts and write the effects.
import type { Refusal } from "@/lib/problems";
import { REINSTATE_GRANT_PREFIX, REVERSAL_GRANT_PREFIX } from "./grant-decision";
import { checkGuard, type LineFacts } from "./guards";
import { edgeFor, refusal, TERMINAL_STATES, type GuardName, type OrderEvent, type OrderState, type Source } from "./machine";
import type { LedgerMove, TakeBackRule, TakeBackRules } from "./take-back";
import type { ExceptionKind, OrderSnapshot, TransitionRecord } from "./types";

export interface EventInput {
  readonly event: OrderEvent;
  /** The business fact that makes this event unique (see DESIGN.md); '' when there is none. */
  readonly bizKey: string;
  readonly actor: string;
  readonly source: Source;
  readonly reason?: string | null;
  /** What the channel says was paid, in minor units (pay only). */
  readonly amount?: number;
  /** What the caller saw when it decided; a mismatch is `stale`. */
  readonly expectedState?: OrderState;
  readonly expectedVersion?: number;
}

/** What the decision reads under the lock besides the order row (null where the event needs none). */
export interface Facts {
  readonly duplicate: TransitionRecord | null;
  /** The target of reject-refund and reverse-refund: the state the order had when the refund was requested. */
  readonly refundFrom: OrderState | null;
  readonly lines: readonly LineFacts[] | null;
  /** The tenant's take-back rules (confirm-refund, reverse-refund). */
  readonly rules?: TakeBackRules | null;
  /** Per sku, the rule its goods were last taken back by (reverse-refund). */
  readonly takenBy?: Readonly<Record<string, TakeBackRule>> | null;
}

/** The payload of `order.transitioned` webhooks; the writer adds `at`, the transition's time. */
export interface TransitionedPayload {
  readonly tenantId: string;
  readonly orderNo: string;
  readonly event: OrderEvent;
  readonly from: OrderState;
  readonly to: OrderState;
  readonly version: number;
  readonly bizKey: string;
  readonly source: Source;
}

/** Money or facts the ledger could not apply, filed for ops (order_exceptions). */
export interface ExceptionDraft {
  readonly tenantId: string;
  readonly orderId: number | null;
  readonly kind: ExceptionKind;
  readonly event?: string;
  readonly bizKey?: string;
  readonly amount?: number;
  readonly actor: string;
  readonly detail: Record<string, unknown>;
}

export interface Effects {
  readonly order: OrderSnapshot;
  readonly to: OrderState;
  /** The transition row to insert: the record as it will read, less what the database assigns. */
  readonly transition: Omit<TransitionRecord, "id" | "at">;
  readonly outbox: { readonly topic: "order.transitioned"; readonly payload: TransitionedPayload };
  /**
   * Grants-ledger rows the edge writes, each under its take-back rule: what a refunded order had
   * been granted, taken back (confirm-refund), or given back (reverse-refund).
   */
  readonly ledger: readonly LedgerEntry[];
}

/** A ledger move with the grant id it is written under: one per (order, sku, event's bizKey). */
export interface LedgerEntry extends LedgerMove {
  readonly grantId: string;
}

export type Decision =
  | { readonly outcome: "apply"; readonly effects: Effects }
  | { readonly outcome: "duplicate"; readonly transition: TransitionRecord }
  | { readonly outcome: "stale"; readonly refusal: Refusal }
  | { readonly outcome: "illegal"; readonly refusal: Refusal; readonly exception?: ExceptionDraft }
  | { readonly outcome: "rejected"; readonly guard: GuardName; readonly refusal: Refusal; readonly exception: ExceptionDraft };

const GUARD_EXCEPTION: Readonly<Record<GuardName, ExceptionKind>> = {
  "amount-matches": "amount-mismatch",
  "nothing-pending": "delivery-incomplete",
  "grants-reversed": "reversal-impossible",
  "grants-restored": "reversal-impossible",
};

/** The grant id prefix of the ledger rows each guard's edge writes (the event's bizKey follows). */
const LEDGER_PREFIX: Partial<Readonly<Record<GuardName, string>>> = {
  "grants-reversed": REVERSAL_GRANT_PREFIX,
  "grants-restored": REINSTATE_GRANT_PREFIX,
};

export function decide(order: OrderSnapshot, input: EventInput, facts: Facts): Decision {
  if (facts.duplicate) return { outcome: "duplicate", transition: facts.duplicate };

  const staleness = staleRefusal(order, input);
  if (staleness) return { outcome: "stale", refusal: staleness };

  const edge = edgeFor(order.state, input.event);
  if (!edge) {
    const why = refusal(order.state, input.event)!;
    return { outcome: "illegal", refusal: why, ...(input.event === "pay" ? { exception: unappliedPayment(order, input, why) } : {}) };
  }

  const to = edge.to === "previous" ? facts.refundFrom : edge.to;
  if (!to) throw new Error(`order ${order.id} is refunding but has no request-refund transition`);

  let ledger: readonly LedgerEntry[] = [];
  if (edge.guard) {
    const verdict = checkGuard(edge.guard, {
      orderAmount: order.amount,
      currency: order.currency,
      ...(input.amount !== undefined ? { paidAmount: input.amount } : {}),
      lines: facts.lines ?? [],
      ...(facts.rules ? { rules: facts.rules } : {}),
      ...(facts.takenBy ? { takenBy: facts.takenBy } : {}),
    });
    if (!verdict.ok) {
      return {
        outcome: "rejected",
        guard: edge.guard,
        refusal: verdict.refusal,
        exception: exceptionFor(order, input, GUARD_EXCEPTION[edge.guard], { guard: edge.guard, refusal: verdict.refusal }),
      };
    }
    const grantId = `${LEDGER_PREFIX[edge.guard] ?? ""}${input.bizKey}`;
    ledger = verdict.moves.map((move) => ({ ...move, grantId }));
  }
  return { outcome: "apply", effects: effectsOf(order, input, to, ledger) };
}

function effectsOf(order: OrderSnapshot, input: EventInput, to: OrderState, ledger: readonly LedgerEntry[]): Effects {
  const transition = {
    event: input.event,
    from: order.state,
    to,
    bizKey: input.bizKey,
    actor: input.actor,
    source: input.source,
    reason: input.reason ?? null,
  };
  const payload: TransitionedPayload = {
    tenantId: order.tenantId,
    orderNo: order.orderNo,
    event: input.event,
    from: order.state,
    to,
    version: order.version + 1,
    bizKey: input.bizKey,
    source: input.source,
  };
  return { order, to, transition, outbox: { topic: "order.transitioned", payload }, ledger };
}

function staleRefusal(order: OrderSnapshot, input: EventInput): Refusal | null {
  if (input.expectedState !== undefined && input.expectedState !== order.state) {
    return { kind: "stale-state", expected: input.expectedState, actual: order.state };
  }
  if (input.expectedVersion !== undefined && input.expectedVersion !== order.version) {
    return { kind: "stale-version", expected: input.expectedVersion, actual: order.version };
  }
  return null;
}

/** Money arrived for an order that cannot take it: never dropped, always filed for ops. */
function unappliedPayment(order: OrderSnapshot, input: EventInput, why: Refusal): ExceptionDraft {
  const kind: ExceptionKind =
    order.state === "closed" ? "payment-after-close" : order.state === "refunded" ? "payment-after-refund" : "second-payment";
  return exceptionFor(order, input, kind, { refusal: why, terminal: TERMINAL_STATES.includes(order.state) });
}

function exceptionFor(order: OrderSnapshot, input: EventInput, kind: ExceptionKind, detail: Record<string, unknown>): ExceptionDraft {
  return {
    tenantId: order.tenantId,
    orderId: order.id,
    kind,
    event: input.event,
    bizKey: input.bizKey,
    ...(input.amount !== undefined ? { amount: input.amount } : {}),
    actor: input.actor,
    detail: { ...detail, state: order.state, version: order.version, source: input.source },
  };
}
