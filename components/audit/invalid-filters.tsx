import { useLocale, useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import type { FieldProblem } from "@/lib/problems";

/** The filters of a log page that could not be read, each with why, in the reader's language. Server or client. */
export function InvalidFilters({ title, invalid }: { title: string; invalid: readonly { readonly field: string; readonly problem: FieldProblem }[] }) {
  const root = useTranslations() as unknown as Translate;
  const locale = useLocale();
  if (invalid.length === 0) return null;
  return (
    <Alert tone="error">
      {title}{" "}
      {invalid.map((i) => (
        <span key={i.field} className="mr-2">
          <span className="font-mono">{i.field}</span>: {describeProblem(i.problem, root, isLocale(locale) ? locale : DEFAULT_LOCALE)}
        </span>
      ))}
    </Alert>
  );
}
