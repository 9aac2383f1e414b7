import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { AppError, type PublicError } from "@/lib/errors";
import type { Locale } from "./locales";
import { describe, translator } from "./translator";

/**
 * What a caller may see of any error, in their language: an AppError's problem (or its code's
 * general message) and its field problems; a database that cannot be reached is `unavailable` (try
 * again shortly, not a bug); anything else is a generic message with a reference to find the real
 * error in the logs. Never a stack trace, never an internal message.
 */
export function toPublicError(error: unknown, reference: string, locale: Locale): PublicError {
  const t = translator(locale);
  if (!(error instanceof AppError) || error.code === "internal") {
    if (isDatabaseUnavailable(error)) return { code: "unavailable", message: t("errors.unavailable") };
    return { code: "internal", message: t("errors.internal", { reference }), reference };
  }
  const fields = error.fields
    ? Object.fromEntries(Object.entries(error.fields).map(([field, problems]) => [field, problems.map((p) => sentence(describe(p, locale), locale))]))
    : undefined;
  return {
    code: error.code,
    message: error.problem ? sentence(describe(error.problem, locale), locale) : t(`errors.${error.code}`),
    ...(error.problem ? { problem: error.problem } : {}),
    ...(fields ? { fields } : {}),
  };
}

/** A problem's words stand alone here: a capital and a full stop. */
function sentence(text: string, locale: Locale): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?。！？]$/.test(capital) ? capital : `${capital}${locale === "zh" ? "。" : "."}`;
}
