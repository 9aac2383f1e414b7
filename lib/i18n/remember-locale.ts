import "server-only";
import { cookies } from "next/headers";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, type Locale } from "./locales";

/**
 * Puts the account's language in the browser's locale cookie, from which proxy.ts picks the pages'
 * locale: at sign-in and when the language is switched (a route handler or a server action).
 */
export async function rememberLocale(locale: Locale): Promise<void> {
  (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", sameSite: "lax", maxAge: LOCALE_COOKIE_MAX_AGE });
}
