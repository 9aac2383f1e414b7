export const LOCALES = ["en", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "orderops-locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The best of our locales for an Accept-Language header. */
export function localeFromAcceptLanguage(header: string | null): Locale {
  return header?.toLowerCase().split(",")[0]?.trim().startsWith("zh") ? "zh" : DEFAULT_LOCALE;
}

/** How long the locale cookie lasts: a preference, not a credential (proxy.ts reads it for every page). */
export const LOCALE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;
