// Per-line delivery progress. Pure.

export interface LineQuantity {
  readonly sku: string;
  readonly quantity: number;
}

export interface LineProgress {
  readonly sku: string;
  readonly expected: number;
  readonly granted: number;
  readonly pending: number;
}

/**
 * `granted` is the ledger sum for the line (reversals are negative). Pending never goes below
 * zero: a reversed line is not "owed" again.
 */
export function lineProgress(line: LineQuantity, granted: number): LineProgress {
  return { sku: line.sku, expected: line.quantity, granted, pending: Math.max(0, line.quantity - granted) };
}

export function orderProgress(
  lines: readonly LineQuantity[],
  grantedBySku: Readonly<Record<string, number>>,
): LineProgress[] {
  return lines.map((line) => lineProgress(line, grantedBySku[line.sku] ?? 0));
}

export function isFullyDelivered(progress: readonly LineProgress[]): boolean {
  return progress.every((line) => line.pending === 0);
}
