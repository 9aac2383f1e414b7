import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTimeZone, getTranslations, setRequestLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { IntlProvider } from "@/components/i18n/intl-provider";
import favicon from "@/public/favicon.ico";
import { QueryProvider } from "@/components/query-provider";
import { isLocale, LOCALES } from "@/lib/i18n/locales";
import "../globals.css";

// Every page's HTML is made per locale, and reads nothing of the request: the URL a person uses
// carries no locale (/orders); proxy.ts rewrites it to /<locale>/orders from the locale cookie
// (else the browser's language), so pages that read no data are prerendered once per locale and
// served as files. Who is signed in is read by the browser (the frame's `me` read model), and each
// page's data from its JSON route.
export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }));
}

type Props = { children: ReactNode; params: Promise<{ locale: string }> };

// The browser tab names the page first, then the console, both in the reader's language.
export async function generateMetadata({ params }: Omit<Props, "children">): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale: isLocale(locale) ? locale : "en", namespace: "nav" });
  // The page names its icon as a build asset (/_next/static/media/…, cached for a year, never asked
  // for again); /favicon.ico, for whoever asks for it by name, would be a request on every page load.
  return { title: { default: t("brand"), template: `%s · ${t("brand")}` }, description: t("description"), icons: { icon: favicon.src } };
}

export default async function LocaleLayout({ children, params }: Props) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const timeZone = await getTimeZone();
  return (
    <html lang={locale === "zh" ? "zh-CN" : "en"}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <IntlProvider locale={locale} timeZone={timeZone}>
          <QueryProvider>{children}</QueryProvider>
        </IntlProvider>
      </body>
    </html>
  );
}
