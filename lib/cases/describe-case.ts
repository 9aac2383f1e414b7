// A case's explanation (explain.ts) in words, in one language: the catalogue's `cases.explain.*`
// messages with the facts formatted for that language (money, durations, line progress, a refusal
// through describeProblem). Pure: the queue and the order page word cases with it on the server or
// in the browser, and English serves the API and the logs.
import { formatMoney } from "@/lib/format";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import type { Locale } from "@/lib/i18n/locales";
import { assertNever } from "@/lib/orders/machine";
import type { CaseExplanation, TakeBackFailure } from "./explain";
import { personOf } from "./offers";
import type { RefundReach } from "./refund-reach";
import type { RefundStatus } from "@/lib/refunds/model";

const INTL_LOCALE: Readonly<Record<Locale, string>> = { en: "en-US", zh: "zh-CN" };

const UNITS = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
] as const;

/** "3 minutes": the largest whole unit, as the console words durations everywhere. */
export function describeDuration(seconds: number, t: Translate): string {
  const s = Math.max(0, Math.floor(seconds));
  const [unit, size] = UNITS.find(([, size]) => s >= size) ?? UNITS[3];
  return t(`orders.duration.${unit}`, { count: Math.floor(s / size) });
}

/**
 * "answered 503", "is not configured": how a call to the game failed, as the predicate of its
 * endpoint. Exported so the order page's taken-back list says what the case says.
 */
export function describeFailure(failure: TakeBackFailure, t: Translate): string {
  switch (failure.kind) {
    case "no-endpoint":
      return t("cases.failure.no-endpoint");
    case "http":
      return t("cases.failure.http", { status: failure.status });
    case "timeout":
      return t("cases.failure.timeout", { seconds: failure.seconds });
    case "network":
      return failure.cause === "other" ? t("cases.failure.network", { message: failure.message }) : t(`cases.failure.unreachable.${failure.cause}`);
    default:
      return assertNever(failure);
  }
}

export function describeCase(e: CaseExplanation, t: Translate, locale: Locale): string {
  const money = (minor: number, currency: string) => formatMoney(minor, currency, INTL_LOCALE[locale]);
  const and = (items: readonly string[]) => new Intl.ListFormat(INTL_LOCALE[locale], { type: "conjunction" }).format(items);
  const line = (l: { sku: string; granted: number; expected: number }) => t("cases.explain.line", { sku: l.sku, granted: l.granted, expected: l.expected });
  switch (e.kind) {
    case "payment-after-close":
      return e.secondsAfter !== null && e.closedBy !== null
        ? t("cases.explain.payment-after-close", {
            paid: money(e.paid, e.currency),
            txn: e.txn,
            after: describeDuration(e.secondsAfter, t),
            closedBy: t(`cases.closers.${e.closedBy}`),
          })
        : t("cases.explain.payment-after-close-unknown", { paid: money(e.paid, e.currency), txn: e.txn });
    case "payment-after-refund":
      return e.secondsAfter !== null
        ? t("cases.explain.payment-after-refund", { paid: money(e.paid, e.currency), txn: e.txn, after: describeDuration(e.secondsAfter, t) })
        : t("cases.explain.payment-after-refund-unknown", { paid: money(e.paid, e.currency), txn: e.txn });
    case "second-payment":
      return e.firstTxn !== null
        ? t("cases.explain.second-payment", { paid: money(e.paid, e.currency), txn: e.txn, first: e.firstTxn })
        : t("cases.explain.second-payment-unknown", { paid: money(e.paid, e.currency), txn: e.txn });
    case "amount-mismatch": {
      const values = {
        expected: money(e.expected, e.currency),
        paid: money(e.paid, e.currency),
        txn: e.txn,
        difference: money(Math.abs(e.paid - e.expected), e.currency),
        direction: e.paid > e.expected ? "over" : "short",
      };
      return e.accepted ? t("cases.explain.amount-mismatch-accepted", values) : t("cases.explain.amount-mismatch", values);
    }
    case "delivery-incomplete":
      return t("cases.explain.delivery-incomplete", { lines: and(e.lines.map(line)) });
    case "delivery-failed": {
      const failure = e.failure ? describeFailure(e.failure, t) : t("cases.failure.unknown");
      const calls = { failure, attempts: e.attempts };
      return e.sku !== null && e.granted !== null && e.expected !== null
        ? t("cases.explain.delivery-failed", { ...calls, sku: e.sku, granted: e.granted, expected: e.expected })
        : t("cases.explain.delivery-failed-unknown", calls);
    }
    case "delivery-unrecorded":
      return t("cases.explain.delivery-unrecorded", {
        sku: e.sku,
        quantity: e.quantity,
        grantId: e.grantId,
        why: e.refusal ? describeProblem(e.refusal, t, locale) : t("cases.explain.noReason"),
      });
    case "reversal-impossible":
      return t("cases.explain.reversal-impossible", { refund: e.refundKey, why: e.refusal ? describeProblem(e.refusal, t, locale) : t("cases.explain.noReason") });
    case "store-refund-reversed":
      return t("cases.explain.store-refund-reversed", { transaction: e.transactionId });
    case "store-partial-refund":
      return e.voidedQuantity === null
        ? t("cases.explain.store-partial-refund-unknown", { transaction: e.transactionId })
        : t("cases.explain.store-partial-refund", { transaction: e.transactionId, quantity: e.voidedQuantity });
    case "take-back-failed":
      return t(e.direction === "take" ? "cases.explain.take-back-failed" : "cases.explain.give-back-failed", {
        sku: e.sku,
        units: e.units,
        rule: t(`takeBack.rules.${e.rule}`),
        failure: e.failure ? describeFailure(e.failure, t) : t("cases.failure.unknown"),
        attempts: e.attempts,
        callId: e.callId,
      });
    case "other":
      return t("cases.explain.other", { kind: e.caseKind });
    default:
      return assertNever(e);
  }
}

/**
 * Where a refund stands, in words: answered (its status), with the channel (and how it was told),
 * on its way, or not sent and why. The one wording of refund-reach.ts's judgement: the case card,
 * the queue row and the overview say the same.
 */
export function describeRefundReach(reach: RefundReach, status: RefundStatus, t: Translate): string {
  switch (reach.kind) {
    case "answered":
      return t(`cases.refundStatus.${status}`);
    case "with-channel":
      return reach.via === "webhook" ? t("cases.reach.with-channel") : t("cases.reach.told", { by: personOf(reach.by), reason: reach.reason });
    case "on-its-way":
      return reach.failure === null
        ? t("cases.reach.on-its-way")
        : t("cases.reach.retrying", { failure: describeFailure(reach.failure, t), attempts: reach.attempts });
    case "not-sent":
      switch (reach.why.kind) {
        case "no-webhook":
          return t("cases.reach.not-sent-no-webhook");
        case "gave-up":
          return t("cases.reach.not-sent-gave-up", { failure: reach.why.failure ? describeFailure(reach.why.failure, t) : t("cases.failure.unknown"), attempts: reach.why.attempts });
        case "no-message":
          return t("cases.reach.not-sent-no-message");
        default:
          return assertNever(reach.why);
      }
    default:
      return assertNever(reach);
  }
}
