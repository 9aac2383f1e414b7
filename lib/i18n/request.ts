import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { currentStaff } from "@/lib/auth/current-staff";
import { isLocale, LOCALE_COOKIE, localeFromAcceptLanguage, type Locale } from "./locales";

// The UI language: the signed-in staff member's own setting; before sign-in, a cookie or the
// browser's preference. (No locale in the URL: the console is not a public site.)
export default getRequestConfig(async () => {
  const locale = await resolveLocale();
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default };
});

async function resolveLocale(): Promise<Locale> {
  const staff = await currentStaff().catch(() => null);
  if (staff && isLocale(staff.locale)) return staff.locale;
  const cookie = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (isLocale(cookie)) return cookie;
  return localeFromAcceptLanguage((await headers()).get("accept-language"));
}
