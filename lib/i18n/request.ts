import { getRequestConfig } from "next-intl/server";
import { browserLocale } from "./browser-locale";
import { isLocale } from "./locales";

// The UI language: the page's locale segment (app/[locale]/, which proxy.ts fills from the locale
// cookie — the account's language, set at sign-in and by the language switch — else the browser's
// preference). Server actions and route handlers have no segment: the same cookie, read here.
// next-intl's request config (next.config.mjs).
export default getRequestConfig(async ({ requestLocale }) => {
  const segment = await requestLocale;
  const locale = isLocale(segment) ? segment : await browserLocale();
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default };
});
