"use client";

import { useTranslations } from "next-intl";
import { updateAppleStore, type UpdateAppleStoreInput } from "@/app/[locale]/(console)/settings/actions/update-apple-store";
import { Field, Input, Select } from "@/components/ui/field";
import { ENVIRONMENTS } from "@/lib/settings/apple-environments";
import { SettingsForm } from "./settings-form";

export function AppleStoreForm({ tenant, updatedAt, bundleId, environment }: { tenant: string; updatedAt: string; bundleId: string | null; environment: string | null }) {
  const t = useTranslations("settings.appleStore");
  const id = `apple-store-${tenant}`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`apple-store-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) =>
        updateAppleStore({ tenant, expectedUpdatedAt, bundleId: String(form.get("bundleId") ?? ""), environment: String(form.get("environment") ?? "") as UpdateAppleStoreInput["environment"] })
      }
    >
      {({ fieldError }) => (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t("bundleId")} htmlFor={`${id}-bundle`} error={fieldError("bundleId")} hint={t("bundleHint")}>
            <Input
              id={`${id}-bundle`}
              name="bundleId"
              autoComplete="off"
              spellCheck={false}
              defaultValue={bundleId ?? ""}
              aria-invalid={fieldError("bundleId") ? true : undefined}
              aria-describedby={fieldError("bundleId") ? `${id}-bundle-error` : undefined}
            />
          </Field>
          <Field label={t("environment")} htmlFor={`${id}-environment`} error={fieldError("environment")}>
            <Select id={`${id}-environment`} name="environment" defaultValue={environment ?? "Production"}>
              {ENVIRONMENTS.map((e) => (
                <option key={e} value={e}>
                  {t(`environments.${e}`)}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
    </SettingsForm>
  );
}
