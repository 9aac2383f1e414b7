"use client";

import { useTranslations } from "next-intl";
import { updateRefundWatch } from "@/app/[locale]/(console)/settings/actions/update-refund-watch";
import { Field, Input } from "@/components/ui/field";
import { SettingsForm } from "./settings-form";

export function RefundWatchForm({ tenant, updatedAt, percent }: { tenant: string; updatedAt: string; percent: number | null }) {
  const t = useTranslations("settings.refundWatch");
  const id = `refund-watch-${tenant}`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`refund-watch-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) => updateRefundWatch({ tenant, expectedUpdatedAt, percent: String(form.get("percent") ?? "") })}
    >
      {({ fieldError }) => (
        <Field label={t("field")} htmlFor={id} error={fieldError("percent")} hint={t("hint")}>
          <div className="max-w-32">
            <Input
              id={id}
              name="percent"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={percent ?? ""}
              className="tabular-nums"
              aria-invalid={fieldError("percent") ? true : undefined}
              aria-describedby={fieldError("percent") ? `${id}-error` : undefined}
            />
          </div>
        </Field>
      )}
    </SettingsForm>
  );
}
