// Exceptions as cases (issue 13): the states a case moves through, the ways out of it, and how
// kinds group. Pure data: the database holds the same names (migration
// 20261203170000_cases_and_refunds), the console and the SLA settings read them from here.
import { EXCEPTION_KINDS, type ExceptionKind } from "@/lib/orders/types";

export const CASE_STATUSES = ["open", "in-progress", "resolved", "dismissed"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Cases someone still has to work: the queue's, the overview's and the SLA's. */
export const ACTIVE_STATUSES = ["open", "in-progress"] as const satisfies readonly CaseStatus[];
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

/**
 * The ways out of a case. Those in CHOSEN_RESOLUTIONS are chosen by a person (lib/cases/offers.ts
 * says when each is offered); `delivered` and `order-ended` are what the system records when it
 * closes a delivery case by itself (the lines were completed, or the order was refunded or closed
 * and owes nothing), `take-back-done` when the take_backs row behind a take-back-failed case was
 * done after all — after a person's `retry-take-back`, or without one. The database holds the same
 * list (migration 20261204150000_take_back_retry).
 */
export const RESOLUTIONS = ["refund", "honour", "accept-and-refund-difference", "repair", "compensate", "delivered", "order-ended", "take-back-done", "retry-take-back"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const CHOSEN_RESOLUTIONS = ["refund", "honour", "accept-and-refund-difference", "repair", "compensate", "retry-take-back"] as const satisfies readonly Resolution[];
export type ChosenResolution = (typeof CHOSEN_RESOLUTIONS)[number];

/** Money that arrived and could not be applied, or a refund the ledger could not follow. */
export const MONEY_KINDS = [
  "amount-mismatch",
  "payment-after-close",
  "payment-after-refund",
  "second-payment",
  "reversal-impossible",
  "store-refund-reversed",
  "store-partial-refund",
  // The tenant paid money back and the player kept the goods (or is owed goods again).
  "take-back-failed",
] as const satisfies readonly ExceptionKind[];
/** Goods owed that did not arrive. */
export const DELIVERY_KINDS = ["delivery-incomplete", "delivery-failed"] as const satisfies readonly ExceptionKind[];

export type KindClass = "money" | "delivery";

export function kindClass(kind: ExceptionKind): KindClass {
  return (DELIVERY_KINDS as readonly ExceptionKind[]).includes(kind) ? "delivery" : "money";
}

/** Default SLAs: money waiting 4 hours, goods 1 hour. The migration's column default says the same. */
export const DEFAULT_SLA_SECONDS: Readonly<Record<KindClass, number>> = { money: 4 * 3_600, delivery: 3_600 };

export const DEFAULT_CASE_SLA: Readonly<Record<ExceptionKind, number>> = Object.fromEntries(
  EXCEPTION_KINDS.map((kind) => [kind, DEFAULT_SLA_SECONDS[kindClass(kind)]]),
) as Record<ExceptionKind, number>;

/** Who the system is when it closes a case by itself (the delivery coordinator names itself). */
export const CASES_ACTOR = "system:cases";

/**
 * The delivery coordinator files grants the game server made but the ledger refused under this
 * bizKey prefix (lib/jobs/delivery-record.ts): the player has goods the ledger lacks, so these stay
 * for a person and are never closed by a completed delivery.
 */
export const UNRECORDED_PREFIX = "unrecorded:";

/**
 * The bizKey of the case a failed take_backs row files (lib/jobs/take-back-calls.ts): one per row,
 * ever — the row failing again after a retry files nothing new.
 */
export function takeBackCaseKey(takeBackId: number): string {
  return `take-back:${takeBackId}`;
}

export function isUnrecordedGrant(kind: string, bizKey: string): boolean {
  return kind === "delivery-failed" && bizKey.startsWith(UNRECORDED_PREFIX);
}

export function isExceptionKind(value: string): value is ExceptionKind {
  return (EXCEPTION_KINDS as readonly string[]).includes(value);
}

export function isActive(status: string): status is ActiveStatus {
  return (ACTIVE_STATUSES as readonly string[]).includes(status);
}

export function isCaseStatus(value: string): value is CaseStatus {
  return (CASE_STATUSES as readonly string[]).includes(value);
}

export function isResolution(value: string): value is Resolution {
  return (RESOLUTIONS as readonly string[]).includes(value);
}

/**
 * The payment channel behind a stray payment: the seeded and simulated channels name themselves in
 * the actor (`channel:alipay`) or lead their transaction ids with their name (`alipay-…`). Anything
 * else is named by who reported it.
 */
export function channelOf(actor: string, txn: string): string {
  if (actor.startsWith("channel:")) return actor.slice("channel:".length);
  const prefix = /^([a-z]+)[-_]/.exec(txn)?.[1];
  return prefix ?? actor;
}
