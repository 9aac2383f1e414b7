"use client";

import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";
import zh from "@/messages/zh.json";

export function ChineseMessages({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return (
    <NextIntlClientProvider locale="zh" timeZone={timeZone} messages={zh}>
      {children}
    </NextIntlClientProvider>
  );
}
