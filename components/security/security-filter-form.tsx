import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { UtcRangeFields } from "@/components/audit/utc-range-fields";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { actionsOfKind, SECURITY_KINDS } from "@/lib/audit/queries/kinds";
import type { ParsedSecuritySearch, SecurityFilters } from "@/lib/audit/queries/security-filters";

/** The security log's filters as a plain GET form (a URL to bookmark or paste into an incident). */
export function SecurityFilterForm({ filters, raw }: { filters: SecurityFilters; raw: ParsedSecuritySearch["raw"] }) {
  const t = useTranslations("security.filters");
  const kinds = useTranslations("audit.kinds");
  const actions = useTranslations("audit.actions");
  return (
    <form method="get" action="/admin/security" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5" aria-label={t("label")}>
      <Field label={t("action")} htmlFor="security-action">
        <Select id="security-action" name="action" defaultValue={raw.action ?? ""}>
          <option value="">{t("any")}</option>
          {SECURITY_KINDS.map((kind) => (
            <optgroup key={kind} label={kinds(kind)}>
              <option value={kind}>{t("allOfKind", { kind: kinds(kind) })}</option>
              {actionsOfKind(kind).map((a) => (
                <option key={a} value={a}>
                  {actions(a)} · {a}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
      </Field>
      <Field label={t("who")} htmlFor="security-who" hint={t("whoHint")}>
        <Input id="security-who" name="who" defaultValue={raw.who ?? ""} autoComplete="off" className="font-mono" />
      </Field>
      <Field label={t("ip")} htmlFor="security-ip">
        <Input id="security-ip" name="ip" defaultValue={raw.ip ?? ""} autoComplete="off" className="font-mono" />
      </Field>
      <UtcRangeFields idPrefix="security" from={filters.from} to={filters.to} labels={{ from: t("from"), to: t("to"), hint: t("utcHint") }} />
      <div className="flex items-center gap-3 sm:col-span-2 lg:col-span-5">
        <Button type="submit">{t("apply")}</Button>
        <Link href="/admin/security" className="text-sm text-slate-700 underline-offset-2 hover:underline">
          {t("clear")}
        </Link>
      </div>
    </form>
  );
}
