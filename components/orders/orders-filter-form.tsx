import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { ORDER_STATES } from "@/lib/orders/machine";
import type { TenantOption } from "@/lib/orders/queries/search-orders";
import type { OrdersFormErrors, OrdersFormValues } from "@/lib/read/orders-list";
import { TimeZoneInput } from "./orders-time-zone-input";


/**
 * The search box and filters as a plain GET form: the URL it makes is the result, to bookmark,
 * paste into a ticket, or come back to with the back button. Works without JavaScript.
 */
export function OrdersFilterForm({
  values,
  errors,
  tenants,
}: {
  values: OrdersFormValues;
  errors: OrdersFormErrors;
  tenants: readonly TenantOption[];
}) {
  const t = useTranslations("orders.filters");
  const states = useTranslations("state");
  const problems = useTranslations("orders.errors");
  // Why a filter of the URL was dropped, in words (the asked-for product named).
  const said = (field: keyof OrdersFormErrors) => {
    const problem = errors[field];
    return problem ? problems(problem, { tenant: values.tenant }) : undefined;
  };
  const invalid = (field: keyof OrdersFormErrors) =>
    errors[field] ? { "aria-invalid": true as const, "aria-describedby": `orders-${field}-error` } : {};
  return (
    <form method="get" action="/orders" role="search" aria-label={t("label")} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <Field label={t("q")} htmlFor="orders-q" hint={t("qHint")} error={said("q")}>
        <div className="flex gap-2">
          <Input
            id="orders-q"
            name="q"
            type="search"
            defaultValue={values.q}
            placeholder={t("qPlaceholder")}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            className="font-mono"
            {...invalid("q")}
          />
          <Button type="submit">{t("submit")}</Button>
        </div>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <Field label={t("tenant")} htmlFor="orders-tenant" error={said("tenant")}>
          <Select id="orders-tenant" name="tenant" defaultValue={values.tenant} {...invalid("tenant")}>
            <option value="">{t("allTenants")}</option>
            {tenants.map((tenant) => (
              <option key={tenant.id} value={tenant.id}>
                {tenant.name} ({tenant.id})
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t("state")} htmlFor="orders-state" error={said("state")}>
          <Select id="orders-state" name="state" defaultValue={values.state} {...invalid("state")}>
            <option value="">{t("anyState")}</option>
            {ORDER_STATES.map((state) => (
              <option key={state} value={state}>
                {state} · {states(state)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t("from")} htmlFor="orders-from" error={said("from")}>
          <Input id="orders-from" name="from" type="date" defaultValue={values.from} {...invalid("from")} />
        </Field>
        <Field label={t("to")} htmlFor="orders-to" error={said("to")}>
          <Input id="orders-to" name="to" type="date" defaultValue={values.to} {...invalid("to")} />
        </Field>
        <div className="space-y-1">
          <span className="block text-sm font-medium text-slate-700" aria-hidden>
            &nbsp;
          </span>
          <label htmlFor="orders-stuck" className="flex items-center gap-2 py-2 text-sm text-slate-700">
            <input
              id="orders-stuck"
              name="stuck"
              type="checkbox"
              value="1"
              defaultChecked={values.stuck}
              aria-describedby="orders-stuck-hint"
              className="h-4 w-4 rounded border-slate-300 focus-visible:outline-2 focus-visible:outline-slate-900"
            />
            {t("stuck")}
          </label>
          <p id="orders-stuck-hint" className="text-xs text-slate-500">
            {t("stuckHint")}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary">
          {t("apply")}
        </Button>
        <Link href="/orders" className="text-sm text-slate-700 underline-offset-2 hover:underline">
          {t("clear")}
        </Link>
        <div className="ml-auto">
          <TimeZoneInput current={values.tz} />
        </div>
      </div>
    </form>
  );
}
