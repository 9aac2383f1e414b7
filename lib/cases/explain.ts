// A case in plain words, as data: per kind, the facts a person needs to decide ("paid ¥18.00 by
// alipay-… 3 minutes after the order closed (timeout)"). The words come later, in the reader's
// language (describe-case.ts). Pure; used by the queue, the order page and the API alike.
import type { PendingLine, Refusal } from "@/lib/problems";
import { isOrderState, type OrderState } from "@/lib/orders/machine";
import { NO_GRANT_ENDPOINT, NO_REVOKE_ENDPOINT, TAKE_BACK_RULES, type TakeBackRule } from "@/lib/orders/take-back";
import type { CaseFacts } from "./facts";
import { isUnrecordedGrant } from "./model";

/** How a grant call failed, from the coordinator's recorded error text (lib/jobs/signed-post.ts). */
export type CallFailure =
  | { readonly kind: "http"; readonly status: number }
  | { readonly kind: "timeout"; readonly seconds: number }
  | { readonly kind: "network"; readonly cause: NetworkCause; readonly message: string };

/**
 * What a network failure was, from the error code Node puts in its message ("fetch failed
 * (ECONNREFUSED)"): worded in the reader's language, where the code itself is English to everyone
 * but a developer. "other" keeps only the recorded text.
 */
export type NetworkCause = "refused" | "reset" | "not-found" | "unreachable" | "certificate" | "other";

const NETWORK_CAUSES: readonly (readonly [RegExp, NetworkCause])[] = [
  [/\bECONNREFUSED\b/, "refused"],
  [/\b(ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed)\b/, "reset"],
  [/\b(ENOTFOUND|EAI_AGAIN)\b/, "not-found"],
  [/\b(ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)\b/, "unreachable"],
  [/\b(CERT_\w+|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_CERT_ALTNAME_INVALID)\b/, "certificate"],
];

/** Why the game was not told about a take-back: its endpoint failed, or there is none to call. */
export type TakeBackFailure = CallFailure | { readonly kind: "no-endpoint" };

/** Who closed an order before its payment arrived. */
export type Closer = "timeout" | "staff" | "api" | "channel";

interface Payment {
  readonly paid: number;
  readonly currency: string;
  readonly txn: string;
}

export type CaseExplanation =
  | (Payment & { readonly kind: "payment-after-close"; readonly closedBy: Closer | null; readonly secondsAfter: number | null })
  | (Payment & { readonly kind: "payment-after-refund"; readonly secondsAfter: number | null })
  | (Payment & { readonly kind: "second-payment"; readonly firstTxn: string | null; readonly state: OrderState | null })
  | (Payment & { readonly kind: "amount-mismatch"; readonly expected: number; readonly accepted: boolean })
  | { readonly kind: "delivery-incomplete"; readonly lines: readonly PendingLine[] }
  | {
      readonly kind: "delivery-failed";
      readonly sku: string | null;
      readonly granted: number | null;
      readonly expected: number | null;
      readonly attempts: number;
      readonly failure: CallFailure | null;
      readonly nextAttemptAt: string | null;
    }
  | { readonly kind: "delivery-unrecorded"; readonly sku: string; readonly quantity: number; readonly grantId: string; readonly refusal: Refusal | null }
  | { readonly kind: "reversal-impossible"; readonly refundKey: string; readonly refusal: Refusal | null }
  /** The store reversed a refund the order had already taken (bizKey: the store's transaction id). */
  | { readonly kind: "store-refund-reversed"; readonly transactionId: string }
  /** The store refunded part of the order (bizKey: the store's transaction id); the quantity when the store said it. */
  | { readonly kind: "store-partial-refund"; readonly transactionId: string; readonly voidedQuantity: number | null }
  /**
   * A take_backs row failed (lib/jobs/take-back-calls.ts): `take`, the refund's units the game was to
   * take from the player; `give`, units owed to the player again after a store reversed its refund.
   * `units` is positive; `callId` the revocationId or grantId the game was (or would have been) sent.
   */
  | {
      readonly kind: "take-back-failed";
      readonly direction: "take" | "give";
      readonly sku: string;
      readonly units: number;
      readonly rule: TakeBackRule;
      readonly attempts: number;
      readonly failure: TakeBackFailure | null;
      readonly callId: string;
    }
  /** A kind this version does not know, or a detail that is not what its writer writes. */
  | { readonly kind: "other"; readonly caseKind: string };

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const isRefusal = (v: unknown): v is Refusal => typeof v === "object" && v !== null && typeof (v as { kind?: unknown }).kind === "string";

export function callFailure(error: string | null): CallFailure | null {
  if (error === null) return null;
  const http = /^HTTP (\d{3})\b/.exec(error);
  if (http) return { kind: "http", status: Number(http[1]) };
  const timeout = /^timed out after (\d+) ms/.exec(error);
  if (timeout) return { kind: "timeout", seconds: Math.round(Number(timeout[1]) / 1000) };
  const cause = NETWORK_CAUSES.find(([code]) => code.test(error))?.[1] ?? "other";
  return { kind: "network", cause, message: error };
}

/** A take-back call's last error as data: no endpoint to call, or how the call failed. */
export function takeBackFailure(error: string | null): TakeBackFailure | null {
  return error === NO_REVOKE_ENDPOINT || error === NO_GRANT_ENDPOINT ? { kind: "no-endpoint" } : callFailure(error);
}

function closer(bizKey: string, source: string): Closer {
  if (bizKey === "timeout" || source === "job") return "timeout";
  if (source === "console") return "staff";
  if (source === "callback") return "channel";
  return "api";
}

function secondsBetween(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
}

export function explainCase(c: CaseFacts): CaseExplanation {
  const other = { kind: "other", caseKind: c.kind } as const;
  const payment: Payment | null = c.amount !== null ? { paid: c.amount, currency: c.currency, txn: c.bizKey } : null;
  const related = c.related;
  switch (c.kind) {
    case "payment-after-close":
      if (!payment) return other;
      return {
        kind: c.kind,
        ...payment,
        closedBy: related ? closer(related.bizKey, related.source) : null,
        secondsAfter: related ? secondsBetween(related.at, c.createdAt) : null,
      };
    case "payment-after-refund":
      if (!payment) return other;
      return { kind: c.kind, ...payment, secondsAfter: related ? secondsBetween(related.at, c.createdAt) : null };
    case "second-payment": {
      if (!payment) return other;
      const state = c.detail.state;
      return { kind: c.kind, ...payment, firstTxn: related?.bizKey ?? null, state: isOrderState(state) ? state : null };
    }
    case "amount-mismatch": {
      const refusal = c.detail.refusal;
      const expected = isRefusal(refusal) && refusal.kind === "amount-mismatch" ? refusal.expected : (c.order?.amount ?? null);
      if (!payment || expected === null) return other;
      return { kind: c.kind, ...payment, expected, accepted: related !== null };
    }
    case "delivery-incomplete": {
      const refusal = c.detail.refusal;
      if (!isRefusal(refusal) || refusal.kind !== "lines-pending") return other;
      return { kind: c.kind, lines: refusal.lines };
    }
    case "delivery-failed": {
      if (isUnrecordedGrant(c.kind, c.bizKey)) {
        const sku = str(c.detail.sku);
        const grantId = str(c.detail.grantId);
        const quantity = num(c.detail.quantity);
        if (sku === null || grantId === null || quantity === null) return other;
        return { kind: "delivery-unrecorded", sku, quantity, grantId, refusal: isRefusal(c.detail.refusal) ? c.detail.refusal : null };
      }
      const sku = str(c.detail.sku);
      const line = sku !== null ? c.lines?.find((l) => l.sku === sku) : undefined;
      return {
        kind: c.kind,
        sku,
        granted: line?.granted ?? null,
        expected: line?.expected ?? null,
        attempts: num(c.detail.attempts) ?? 0,
        failure: callFailure(str(c.detail.lastError)),
        nextAttemptAt: str(c.detail.nextAttemptAt),
      };
    }
    case "reversal-impossible":
      return { kind: c.kind, refundKey: c.bizKey, refusal: isRefusal(c.detail.refusal) ? c.detail.refusal : null };
    case "store-refund-reversed":
      return { kind: c.kind, transactionId: str(c.detail.transactionId) ?? c.bizKey };
    case "store-partial-refund":
      return { kind: c.kind, transactionId: str(c.detail.transactionId) ?? c.bizKey, voidedQuantity: num(c.detail.voidedQuantity) };
    case "take-back-failed": {
      const sku = str(c.detail.sku);
      const units = num(c.detail.units);
      const rule = TAKE_BACK_RULES.find((r) => r === c.detail.rule);
      const callId = str(c.detail.revocationId) ?? str(c.detail.grantId);
      if (sku === null || units === null || units === 0 || rule === undefined || callId === null) return other;
      return {
        kind: c.kind,
        direction: units < 0 ? "take" : "give",
        sku,
        units: Math.abs(units),
        rule,
        // The row as it is now, when it is still there: after a retry that failed again its latest
        // failure and every attempt so far, not the first failure the case's detail froze.
        attempts: c.takeBack?.attempts ?? num(c.detail.attempts) ?? 0,
        failure: takeBackFailure(c.takeBack?.lastError ?? str(c.detail.lastError)),
        callId,
      };
    }
    default:
      return other;
  }
}
