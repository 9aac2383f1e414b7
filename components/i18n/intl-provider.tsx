"use client";

import { NextIntlClientProvider, type AbstractIntlMessages } from "next-intl";
import { use, type ReactNode } from "react";
import type { Locale } from "@/lib/i18n/locales";

// The reader's catalogue reaches the browser once, as a cached script chunk of its own, instead of
// inside every page's server-rendered payload; each catalogue is imported on its own (a chunk per
// locale), so a browser loads only the one of its reader (~80 KB, not both). The page hydrates once it
// is there.
const CATALOGUES: Record<Locale, () => Promise<{ default: AbstractIntlMessages }>> = {
  en: () => import("@/messages/en.json"),
  zh: () => import("@/messages/zh.json"),
};
const loading = new Map<Locale, Promise<AbstractIntlMessages>>();

function catalogue(locale: Locale): Promise<AbstractIntlMessages> {
  let messages = loading.get(locale);
  if (!messages) {
    messages = CATALOGUES[locale]().then((module) => module.default);
    loading.set(locale, messages);
  }
  return messages;
}

export function IntlProvider({ locale, timeZone, children }: { locale: Locale; timeZone: string; children: ReactNode }) {
  return (
    <NextIntlClientProvider locale={locale} timeZone={timeZone} messages={use(catalogue(locale))}>
      {children}
    </NextIntlClientProvider>
  );
}
