import type { ReactNode } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { ChineseMessages } from "./messages-zh";
import { EnglishMessages } from "./messages-en";

// The reader's catalogue reaches the browser once, in a cached script chunk of its own, instead of
// inside every page's server-rendered payload; each locale's provider is its own client module, so a
// browser loads only the chunk of the one it is given (one catalogue, ~80 KB, not both).
export function IntlProvider({ locale, timeZone, children }: { locale: Locale; timeZone: string; children: ReactNode }) {
  const Messages = locale === "zh" ? ChineseMessages : EnglishMessages;
  return <Messages timeZone={timeZone}>{children}</Messages>;
}
