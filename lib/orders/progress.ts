// Per-line delivery progress. Pure.
import { REINSTATE_GRANT_PREFIX } from "./grant-decision";

export interface LineQuantity {
  readonly sku: string;
  readonly quantity: number;
}

/** What the grants ledger holds for one line: deliveries, and refund reversals (as positive numbers). */
export interface LineLedger {
  readonly granted: number;
  readonly reversed: number;
}

export interface LineProgress {
  readonly sku: string;
  readonly expected: number;
  /** Delivered so far (positive ledger rows). */
  readonly granted: number;
  /** Taken back or written off by a confirmed refund (negative ledger rows, as a positive number). */
  readonly reversed: number;
  readonly pending: number;
}

/**
 * Pending counts deliveries only: a refund's reversal does not make the line "owed" again, and
 * pending never goes below zero.
 */
export function lineProgress(line: LineQuantity, ledger: LineLedger = { granted: 0, reversed: 0 }): LineProgress {
  return {
    sku: line.sku,
    expected: line.quantity,
    granted: ledger.granted,
    reversed: ledger.reversed,
    pending: Math.max(0, line.quantity - ledger.granted),
  };
}

/**
 * Sums ledger rows per sku, as lineLedgerSql (rows.ts) does: quantity > 0 delivers, < 0 reverses,
 * and a `reinstate:` row (a store reversed its refund) gives back what a reversal took.
 */
export function ledgerBySku(rows: readonly { readonly sku: string; readonly grantId: string; readonly quantity: number }[]): Record<string, LineLedger> {
  const totals: Record<string, { granted: number; reversed: number }> = {};
  for (const row of rows) {
    const entry = (totals[row.sku] ??= { granted: 0, reversed: 0 });
    if (row.grantId.startsWith(REINSTATE_GRANT_PREFIX)) entry.reversed -= row.quantity;
    else if (row.quantity > 0) entry.granted += row.quantity;
    else entry.reversed -= row.quantity;
  }
  return totals;
}

export function orderProgress(lines: readonly LineQuantity[], ledger: Readonly<Record<string, LineLedger>>): LineProgress[] {
  return lines.map((line) => lineProgress(line, ledger[line.sku]));
}

export function isFullyDelivered(progress: readonly LineProgress[]): boolean {
  return progress.every((line) => line.pending === 0);
}
