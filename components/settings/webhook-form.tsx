"use client";

import { useTranslations } from "next-intl";
import { updateWebhook } from "@/app/[locale]/(console)/settings/actions/update-webhook";
import { Field, Input } from "@/components/ui/field";
import { SettingsForm } from "./settings-form";

/** The product's webhook URL (the signing secret is never shown: it is not this form's). */
export function WebhookForm({ tenant, updatedAt, webhookUrl }: { tenant: string; updatedAt: string; webhookUrl: string | null }) {
  const t = useTranslations("settings.webhook");
  const id = `webhook-url-${tenant}`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`webhook-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) => updateWebhook({ tenant, expectedUpdatedAt, webhookUrl: String(form.get("webhookUrl") ?? "") })}
    >
      {({ fieldError }) => (
        <div className="space-y-2">
          <p className="text-sm text-slate-700" data-testid={`webhook-current-${tenant}`}>
            {webhookUrl ? (
              <>
                {t("current")} <code className="font-mono break-all">{webhookUrl}</code>
              </>
            ) : (
              t("none")
            )}
          </p>
          <Field label={t("field")} htmlFor={id} error={fieldError("webhookUrl")} hint={t("hint")}>
            <Input
              id={id}
              name="webhookUrl"
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://"
              defaultValue={webhookUrl ?? ""}
              className="font-mono"
              aria-invalid={fieldError("webhookUrl") ? true : undefined}
              aria-describedby={fieldError("webhookUrl") ? `${id}-error` : undefined}
            />
          </Field>
        </div>
      )}
    </SettingsForm>
  );
}
