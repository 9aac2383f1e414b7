"use client";

import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";
import type { Locale } from "@/lib/i18n/locales";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";

// The catalogues reach the browser once, in this cached script chunk, instead of inside every page's
// server-rendered payload (the whole catalogue, ~70 KB, serialised into each HTML response).
const MESSAGES = { en, zh } as const;

export function IntlProvider({ locale, timeZone, children }: { locale: Locale; timeZone: string; children: ReactNode }) {
  return (
    <NextIntlClientProvider locale={locale} timeZone={timeZone} messages={MESSAGES[locale]}>
      {children}
    </NextIntlClientProvider>
  );
}
