"use client";

import { useTranslations } from "next-intl";
import { updateUnpaidTimeout } from "@/app/[locale]/(console)/settings/actions/update-unpaid-timeout";
import { DurationField, durationFrom } from "./duration-field";
import { SettingsForm } from "./settings-form";

export function UnpaidTimeoutForm({ tenant, updatedAt, seconds }: { tenant: string; updatedAt: string; seconds: number }) {
  const t = useTranslations("settings.unpaid");
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`unpaid-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) => updateUnpaidTimeout({ tenant, expectedUpdatedAt, timeout: durationFrom(form, "timeout") })}
    >
      {({ fieldError }) => <DurationField name="timeout" label={t("field")} hint={t("hint")} seconds={seconds} error={fieldError("timeout")} />}
    </SettingsForm>
  );
}
