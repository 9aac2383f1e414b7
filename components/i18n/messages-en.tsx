"use client";

import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";
import en from "@/messages/en.json";

export function EnglishMessages({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return (
    <NextIntlClientProvider locale="en" timeZone={timeZone} messages={en}>
      {children}
    </NextIntlClientProvider>
  );
}
