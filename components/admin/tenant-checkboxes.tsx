"use client";

import { useTranslations } from "next-intl";

export interface TenantChoice {
  readonly id: string;
  readonly name: string;
}

/** The tenant scope picker: one labelled checkbox per tenant the admin may hand out, grouped under a legend. */
export function TenantCheckboxes({
  tenants,
  value,
  onChange,
  error,
  disabled,
}: {
  tenants: readonly TenantChoice[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const t = useTranslations("admin.form");
  function toggle(id: string, checked: boolean) {
    onChange(checked ? [...value, id] : value.filter((t) => t !== id));
  }
  return (
    <fieldset className="space-y-1" aria-describedby={error ? "tenantIds-error" : undefined}>
      <legend className="block text-sm font-medium text-slate-700">{t("tenants")}</legend>
      <p className="text-xs text-slate-500">{t("tenantsHint")}</p>
      {tenants.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noTenants")}</p>
      ) : (
        <div className="flex flex-wrap gap-x-6 gap-y-2 pt-1">
          {tenants.map((tenant) => (
            <label key={tenant.id} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="tenantIds"
                value={tenant.id}
                checked={value.includes(tenant.id)}
                onChange={(event) => toggle(tenant.id, event.currentTarget.checked)}
                disabled={disabled}
                className="h-4 w-4 rounded border-slate-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
              />
              <span>{tenant.name}</span>
              <span className="font-mono text-xs text-slate-500">{tenant.id}</span>
            </label>
          ))}
        </div>
      )}
      {error ? (
        <p id="tenantIds-error" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
