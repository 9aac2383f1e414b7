"use client";

import { useTranslations } from "next-intl";
import { updateGooglePlay } from "@/app/[locale]/(console)/settings/actions/update-google-play";
import { Field, Input } from "@/components/ui/field";
import { SettingsForm } from "./settings-form";

const FIELDS = ["packageName", "pushAudience", "pushServiceAccount"] as const;

export function GooglePlayForm({
  tenant,
  updatedAt,
  values,
}: {
  tenant: string;
  updatedAt: string;
  values: Readonly<Record<(typeof FIELDS)[number], string | null>>;
}) {
  const t = useTranslations("settings.googlePlay");
  const id = `google-play-${tenant}`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`google-play-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) =>
        updateGooglePlay({
          tenant,
          expectedUpdatedAt,
          packageName: String(form.get("packageName") ?? ""),
          pushAudience: String(form.get("pushAudience") ?? ""),
          pushServiceAccount: String(form.get("pushServiceAccount") ?? ""),
        })
      }
    >
      {({ fieldError }) => (
        <div className="grid gap-4 sm:grid-cols-3">
          {FIELDS.map((field) => (
            <Field key={field} label={t(field)} htmlFor={`${id}-${field}`} error={fieldError(field)} hint={t(`${field}Hint`)}>
              <Input
                id={`${id}-${field}`}
                name={field}
                autoComplete="off"
                spellCheck={false}
                defaultValue={values[field] ?? ""}
                aria-invalid={fieldError(field) ? true : undefined}
                aria-describedby={fieldError(field) ? `${id}-${field}-error` : undefined}
              />
            </Field>
          ))}
        </div>
      )}
    </SettingsForm>
  );
}
