import { getRequestConfig } from "next-intl/server";
import { currentStaff } from "@/lib/auth/current-staff";
import { browserLocale } from "./browser-locale";
import { isLocale } from "./locales";

// The UI language: the signed-in staff member's own setting; before sign-in, a cookie or the
// browser's preference. (No locale in the URL: the console is not a public site.)
export default getRequestConfig(async () => {
  const staff = await currentStaff().catch(() => null);
  const locale = staff && isLocale(staff.locale) ? staff.locale : await browserLocale();
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default };
});
