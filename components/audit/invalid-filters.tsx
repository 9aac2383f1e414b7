import { getLocale } from "next-intl/server";
import { Alert } from "@/components/ui/alert";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { describe } from "@/lib/i18n/translator";
import type { FieldProblem } from "@/lib/problems";

/** The filters of a log page that could not be read, each with why, in the reader's language. */
export async function InvalidFilters({ title, invalid }: { title: string; invalid: readonly { readonly field: string; readonly problem: FieldProblem }[] }) {
  if (invalid.length === 0) return null;
  const locale = await getLocale();
  return (
    <Alert tone="error">
      {title}{" "}
      {invalid.map((i) => (
        <span key={i.field} className="mr-2">
          <span className="font-mono">{i.field}</span>: {describe(i.problem, isLocale(locale) ? locale : DEFAULT_LOCALE)}
        </span>
      ))}
    </Alert>
  );
}
