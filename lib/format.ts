// Display helpers shared by server and client components. Pure.

/** Money is stored as integer minor units; only here does it become a decimal string. */
export function formatMoney(amountMinor: number, currency: string, locale = "en-US"): string {
  return moneyFormat(locale, currency).format(amountMinor / 100);
}

// Making an Intl.NumberFormat costs far more than using one (ICU loads the locale's data each
// time), and a page of orders formats a hundred amounts in two or three currencies: one per pair.
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency });
    moneyFormats.set(key, format);
  }
  return format;
}

/** "128", "128.5", "128.50" → 12850 minor units, without ever going through a float. Null if not money. */
export function parseMoney(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}
