// use-intl/core: the translator without React, so the worker and the CLI (run outside Next, under
// the react-server condition) can word problems too.
import { createTranslator } from "use-intl/core";
import en from "@/messages/en.json";
import zh from "@/messages/zh.json";
import type { Problem } from "@/lib/problems";
import { describeProblem, type Translate } from "./describe-problem";
import type { Locale } from "./locales";

// Translators outside React (server actions, route handlers, the API, logs, exception details):
// the same catalogues the console renders with.

const MESSAGES = { en, zh } as const;
const cache = new Map<Locale, Translate>();

export function translator(locale: Locale): Translate {
  let t = cache.get(locale);
  if (!t) {
    t = createTranslator({ locale, messages: MESSAGES[locale] }) as unknown as Translate;
    cache.set(locale, t);
  }
  return t;
}

/** A problem in the reader's language. */
export function describe(problem: Problem, locale: Locale): string {
  return describeProblem(problem, translator(locale), locale);
}

/** A problem in English: the words of the integration API, the logs and exception details. */
export function english(problem: Problem): string {
  return describe(problem, "en");
}
