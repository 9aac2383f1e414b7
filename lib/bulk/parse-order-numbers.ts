// Order numbers pasted or uploaded for bulk compensation. Pure.

export const MAX_BATCH_ORDERS = 5_000;

export interface ParsedOrderNumbers {
  readonly orderNos: readonly string[];
  /** Lines that were repeated, kept once. */
  readonly duplicates: number;
}

/**
 * One order number per line; from CSV, the first column (quoted or not); a header line such as
 * "order_no" is skipped; blanks and repeats are dropped, first occurrence kept.
 */
export function parseOrderNumbers(text: string): ParsedOrderNumbers {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const raw of text.split(/\r?\n/)) {
    const first = raw.split(/[,;\t]/)[0] ?? "";
    const value = first.trim().replace(/^"(.*)"$/, "$1").trim();
    if (!value || /^order[ _-]?no$/i.test(value)) continue;
    if (seen.has(value)) duplicates++;
    else seen.add(value);
  }
  return { orderNos: [...seen], duplicates };
}
