import { getRequestConfig } from "next-intl/server";
import { browserLocale } from "@/lib/i18n/browser-locale";
import { isLocale } from "@/lib/i18n/locales";
import { currentStaff } from "./current-staff";

// The UI language: the signed-in staff member's own setting; before sign-in, a cookie or the
// browser's preference. (No locale in the URL: the console is not a public site.) next-intl's
// request config (next.config.mjs); here in lib/auth because it reads the session, and lib/i18n sits
// below lib/auth.
export default getRequestConfig(async () => {
  const staff = await currentStaff().catch(() => null);
  const locale = staff && isLocale(staff.locale) ? staff.locale : await browserLocale();
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default };
});
