import { useLocale, useTranslations } from "next-intl";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { ORDER_EVENTS, SOURCES } from "@/lib/orders/machine";
import { EXCEPTION_KINDS } from "@/lib/orders/types";
import type { Problem } from "@/lib/problems";

// The order page's words for machine names. Contract names (events, exception kinds) stay visible in
// monospace beside their label, because every team greps for them; the rest is shown by label only.
// Works in server and client components alike (no "use client": the caller decides).

/** A problem in the UI's language, as the order page's forms and panels show it. */
export function useDescribeProblem(): (problem: Problem) => string {
  const t = useTranslations() as unknown as Translate;
  const locale = useLocale();
  return (problem) => describeProblem(problem, t, isLocale(locale) ? locale : DEFAULT_LOCALE);
}

/** Rows store these names as text: one the code does not know (yet) is shown as it is. */
function isOneOf<T extends string>(names: readonly T[], value: string): value is T {
  return (names as readonly string[]).includes(value);
}

function ContractName({ label, name }: { label: string | null; name: string }) {
  return (
    <span>
      {label !== null ? <>{label} </> : null}
      <span className="font-mono text-xs text-slate-600">{name}</span>
    </span>
  );
}

export function EventName({ event }: { event: string }) {
  const t = useTranslations("event");
  return <ContractName label={isOneOf(ORDER_EVENTS, event) ? t(event) : null} name={event} />;
}

export function ExceptionKindName({ kind }: { kind: string }) {
  const t = useTranslations("orderPage.exceptionKinds");
  return <ContractName label={isOneOf(EXCEPTION_KINDS, kind) ? t(kind) : null} name={kind} />;
}

/** Where a change came from (console, API, job, callback). */
export function SourceName({ source }: { source: string }) {
  const t = useTranslations("orderPage.sources");
  return isOneOf(SOURCES, source) ? <>{t(source)}</> : <span className="font-mono">{source}</span>;
}
