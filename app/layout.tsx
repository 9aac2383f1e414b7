import type { Metadata } from "next";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { IntlProvider } from "@/components/i18n/intl-provider";
import { QueryProvider } from "@/components/query-provider";
import { isLocale } from "@/lib/i18n/locales";
import type { ReactNode } from "react";
import "./globals.css";

// The browser tab names the page first, then the console, both in the reader's language.
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("nav");
  return { title: { default: t("brand"), template: `%s · ${t("brand")}` }, description: t("description") };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  const timeZone = await getTimeZone();
  return (
    <html lang={locale === "zh" ? "zh-CN" : "en"}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <IntlProvider locale={isLocale(locale) ? locale : "en"} timeZone={timeZone}>
          <QueryProvider>{children}</QueryProvider>
        </IntlProvider>
      </body>
    </html>
  );
}
