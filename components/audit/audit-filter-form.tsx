import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import type { AuditFilters, ParsedAuditSearch } from "@/lib/audit/queries/filters";
import { MAX_NOTE_SEARCH, OFFERED_ORDER_EVENTS, REASON_FILTERS } from "@/lib/audit/queries/filter-options";
import { ACTION_KINDS, actionsOfKind, AUDIT_KINDS, KNOWN_ACTIONS } from "@/lib/audit/queries/kinds";
import type { TenantChoice } from "@/lib/audit/queries/tenant-choices";
import { SOURCES } from "@/lib/orders/machine";
import { UtcRangeFields } from "./utc-range-fields";

/**
 * The filters as a plain GET form: works without JavaScript, and the URL it makes is the one to
 * bookmark or paste into a ticket.
 */
export function AuditFilterForm({
  filters,
  raw,
  tenants,
  actors,
}: {
  filters: AuditFilters;
  raw: ParsedAuditSearch["raw"];
  tenants: readonly TenantChoice[];
  actors: readonly string[];
}) {
  const t = useTranslations("audit.filters");
  const kinds = useTranslations("audit.kinds");
  const actions = useTranslations("audit.actions");
  const events = useTranslations("event");
  const sources = useTranslations("orderPage.sources");
  const offered = new Set<string>([...OFFERED_ORDER_EVENTS, ...KNOWN_ACTIONS]);
  return (
    <form method="get" action="/audit" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label={t("label")}>
      <Field label={t("kind")} htmlFor="filter-kind">
        <Select id="filter-kind" name="kind" defaultValue={raw.kind ?? ""}>
          <option value="">{t("allKinds")}</option>
          {AUDIT_KINDS.map((k) => (
            <option key={k} value={k}>
              {kinds(k)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("actor")} htmlFor="filter-actor" hint={t("actorHint")}>
        <Input id="filter-actor" name="actor" defaultValue={raw.actor ?? ""} list="audit-actors" autoComplete="off" className="font-mono" />
        <datalist id="audit-actors">
          {actors.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
      </Field>
      <Field label={t("order")} htmlFor="filter-order" hint={t("orderHint")}>
        <Input id="filter-order" name="order" defaultValue={raw.order ?? ""} autoComplete="off" className="font-mono" />
      </Field>
      <Field label={t("tenant")} htmlFor="filter-tenant">
        <Select id="filter-tenant" name="tenant" defaultValue={raw.tenant ?? ""}>
          <option value="">{t("allTenants")}</option>
          {tenants.map((tenant) => (
            <option key={tenant.id} value={tenant.id}>
              {tenant.name} ({tenant.id})
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("event")} htmlFor="filter-event">
        <Select id="filter-event" name="event" defaultValue={raw.event ?? ""}>
          <option value="">{t("any")}</option>
          <optgroup label={kinds("transition")}>
            {OFFERED_ORDER_EVENTS.map((e) => (
              <option key={e} value={e}>
                {e} · {events(e)}
              </option>
            ))}
          </optgroup>
          {ACTION_KINDS.map((kind) => (
            <optgroup key={kind} label={kinds(kind)}>
              {actionsOfKind(kind).map((a) => (
                <option key={a} value={a}>
                  {a} · {actions(a)}
                </option>
              ))}
            </optgroup>
          ))}
          {raw.event && !offered.has(raw.event) ? <option value={raw.event}>{raw.event}</option> : null}
        </Select>
      </Field>
      <Field label={t("source")} htmlFor="filter-source" hint={t("sourceHint")}>
        <Select id="filter-source" name="source" defaultValue={raw.source ?? ""}>
          <option value="">{t("any")}</option>
          {SOURCES.map((s) => (
            <option key={s} value={s}>
              {s} · {sources(s)}
            </option>
          ))}
        </Select>
      </Field>
      <UtcRangeFields idPrefix="filter" from={filters.from} to={filters.to} labels={{ from: t("from"), to: t("to"), hint: t("utcHint") }} />
      <Field label={t("reason")} htmlFor="filter-reason">
        <Select id="filter-reason" name="reason" defaultValue={raw.reason ?? ""}>
          <option value="">{t("any")}</option>
          {REASON_FILTERS.map((r) => (
            <option key={r} value={r}>
              {t(`reasons.${r}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("text")} htmlFor="filter-text" hint={t("textHint")}>
        <Input id="filter-text" name="text" type="search" maxLength={MAX_NOTE_SEARCH} defaultValue={raw.text ?? ""} autoComplete="off" />
      </Field>
      <div className="flex items-center gap-3 sm:col-span-2 lg:col-span-4">
        <Button type="submit">{t("apply")}</Button>
        <Link href="/audit" className="text-sm text-slate-700 underline-offset-2 hover:underline">
          {t("clear")}
        </Link>
      </div>
    </form>
  );
}
