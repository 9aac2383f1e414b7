// Display helpers shared by server and client components. Pure.

/** The Intl locale of each console language ("en", "zh"); a full Intl tag passes through as it is. */
const INTL_LOCALE: Readonly<Record<string, string>> = { en: "en-US", zh: "zh-CN" };

/**
 * Money is stored as integer minor units; only here does it become a decimal string, written the
 * reader's way: "¥128.00" in Chinese, "CN¥128.00" in English. The reader's locale is required: a
 * default let the lists fall back to English ("CN¥") on Chinese pages that showed "¥" elsewhere.
 */
export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  return moneyFormat(INTL_LOCALE[locale] ?? locale, currency).format(amountMinor / 100);
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

/** The units a duration setting is typed and shown in (tenant_settings stores whole seconds). */
export const DURATION_UNITS = ["seconds", "minutes", "hours", "days"] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

export const UNIT_SECONDS: Readonly<Record<DurationUnit, number>> = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 };

/**
 * A set duration in the largest unit it is a whole number of, exactly: 300 → 5 minutes, 90 → 90
 * seconds. For a configured value (a threshold, a bound), where wholeUnit's rounding would lie.
 */
export function bestUnit(seconds: number): { value: number; unit: DurationUnit } {
  for (const unit of [...DURATION_UNITS].reverse()) {
    if (seconds % UNIT_SECONDS[unit] === 0) return { value: seconds / UNIT_SECONDS[unit], unit };
  }
  return { value: seconds, unit: "seconds" };
}

export type WholeUnit = "day" | "hour" | "minute" | "second";

const UNITS: readonly (readonly [WholeUnit, number])[] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/**
 * A span as its largest whole unit, rounded down: 5 days 23 hours is "5 days", never "6 days". The
 * one rounding of every span the console shows (time in state, time left, "… ago", "in …"), so two
 * texts on one line that measure the same span say the same number.
 */
export function wholeUnit(seconds: number): { readonly unit: WholeUnit; readonly count: number } {
  const s = Math.floor(Math.abs(seconds));
  const [unit, size] = UNITS.find(([, size]) => s >= size) ?? UNITS[3]!;
  return { unit, count: Math.floor(s / size) };
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/**
 * "3 hours ago" / "in 3 hours" / "3小时前" for an instant `secondsAgo` before now (negative: still
 * ahead), rounded by wholeUnit. Under a second either way is "now".
 */
export function formatRelative(secondsAgo: number, locale: string): string {
  const { unit, count } = wholeUnit(secondsAgo);
  const tag = INTL_LOCALE[locale] ?? locale;
  // "auto" only for seconds, as next-intl does: it turns 0 into "now", while for days it would say
  // "yesterday" for anything from 24 to 47 hours back, which is not what the date beside it says.
  const numeric = unit === "second" ? "auto" : "always";
  const key = `${tag} ${numeric}`;
  let format = relativeFormats.get(key);
  if (!format) {
    format = new Intl.RelativeTimeFormat(tag, { numeric });
    relativeFormats.set(key, format);
  }
  return format.format(secondsAgo < 0 ? count : -count, unit);
}

/** A moment to the minute in UTC, "2026-12-05 13:40 UTC": the same for every reader, whatever their zone. */
export function formatUtcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
