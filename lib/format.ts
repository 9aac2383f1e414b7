// Display helpers shared by server and client components. Pure.

/** Money is stored as integer minor units; only here does it become a decimal string. */
export function formatMoney(amountMinor: number, currency: string, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amountMinor / 100);
}

/** "128", "128.5", "128.50" → 12850 minor units, without ever going through a float. Null if not money. */
export function parseMoney(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}
