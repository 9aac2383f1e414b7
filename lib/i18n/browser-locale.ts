import { headers } from "next/headers";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, localeFromAcceptLanguage, type Locale } from "./locales";

/** The language of a caller who is not signed in: the locale cookie, else Accept-Language. */
export function localeOfRequest(headers: Headers): Locale {
  for (const pair of (headers.get("cookie") ?? "").split(";")) {
    const [name, value] = pair.split("=").map((s) => s.trim());
    if (name === LOCALE_COOKIE && isLocale(value)) return value;
  }
  return localeFromAcceptLanguage(headers.get("accept-language"));
}

/** localeOfRequest() for the page or action being rendered. */
export async function browserLocale(): Promise<Locale> {
  try {
    return localeOfRequest(await headers());
  } catch {
    return DEFAULT_LOCALE; // outside a request (tests, scripts)
  }
}
