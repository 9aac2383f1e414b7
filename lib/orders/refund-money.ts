// What money a store's refund moved (issue 27, item 5). Pure, and the only place it is computed:
// the store notification paths record it (lib/stores/notifications.ts followSteps), the player's
// refunded total, refund rate and refund watch list read what they recorded.
//
// The rule, in the order's currency and integer minor units:
// - a full refund is the whole amount (the order is `refunded`; nothing is recorded per notification);
// - Apple's prorated REFUND (`share`): amount × revocationPercentage ÷ 100,000 (milliunits of a
//   percent, for the whole purchase);
// - Google's quantity-based partial void (`units`): amount × voidedQuantity ÷ the line quantity —
//   for an order of several lines, the units the void names on each line (never more than the line
//   ordered) over all the units ordered, which is voidedQuantity ÷ quantity for the one-line order a
//   Google purchase is;
// - rounded to the nearest minor unit, a half up (¥6.00 × 1/3 is 200, ¥1.00 × 1/8 is 13), and never
//   below 0 nor above the amount. Computed in BigInt, so an amount of any size is exact.
import type { RefundMeasure } from "./take-back";

/** The divisor of Apple's revocationPercentage: milliunits of a percent (100,000 is everything). */
export const WHOLE_SHARE_MILLIPERCENT = 100_000;

/** amount × numerator ÷ denominator, rounded to the nearest integer with a half up; 0 when the denominator is 0. */
function shareOf(amount: number, numerator: number, denominator: number): number {
  if (denominator <= 0 || numerator <= 0 || amount <= 0) return 0;
  const n = BigInt(Math.min(numerator, denominator));
  const d = BigInt(denominator);
  return Number((BigInt(amount) * n * 2n + d) / (2n * d));
}

/**
 * The money `measure` refunds of an order of `amount` (minor units) whose lines ordered
 * `lineQuantities` units each. See the rule above; the ledger's goods follow the same measure
 * (lib/orders/take-back.ts unitsTaken).
 */
export function refundedMoney(amount: number, measure: RefundMeasure, lineQuantities: readonly number[]): number {
  switch (measure.kind) {
    case "full":
      return Math.max(0, amount);
    case "share":
      return shareOf(amount, measure.milliPercent, WHOLE_SHARE_MILLIPERCENT);
    case "units": {
      const units = Math.max(0, Math.floor(measure.units));
      const ordered = lineQuantities.reduce((sum, q) => sum + Math.max(0, q), 0);
      const named = lineQuantities.reduce((sum, q) => sum + Math.min(Math.max(0, q), units), 0);
      return shareOf(amount, named, ordered);
    }
  }
}
