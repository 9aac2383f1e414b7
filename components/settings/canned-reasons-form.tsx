"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { updateCannedReasons } from "@/app/[locale]/(console)/settings/actions/update-canned-reasons";
import { TEXTAREA } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { isCaseReasonKind } from "@/lib/settings/reason-kinds";
import { CANNED_REASON_KEYS, MAX_CANNED_REASONS, reasonsText, type CannedReasons } from "@/lib/settings/canned-reasons";
import { SettingsForm } from "./settings-form";

/** One list per event, a reason per line: what the order page's event forms offer to pick. */
export function CannedReasonsForm({ tenant, updatedAt, reasons }: { tenant: string; updatedAt: string; reasons: CannedReasons }) {
  const t = useTranslations("settings.cannedReasons");
  const events = useTranslations("event");
  const caseKinds = useTranslations("cases.reasonKinds");
  // Unique per form: every product on the settings page has this form, with the same field names.
  const formId = useId();
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`canned-reasons-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) =>
        updateCannedReasons({
          tenant,
          expectedUpdatedAt,
          ...Object.fromEntries(CANNED_REASON_KEYS.map((event) => [event, String(form.get(event) ?? "")])),
        })
      }
    >
      {({ fieldError }) => (
        <div className="grid gap-4 md:grid-cols-2">
          {CANNED_REASON_KEYS.map((event) => {
            const id = `${formId}-${event}`;
            const error = fieldError(event);
            return (
              <Field key={event} label={isCaseReasonKind(event) ? caseKinds(event) : events(event)} machineName={event} htmlFor={id} error={error} hint={t("hint", { max: MAX_CANNED_REASONS })}>
                <textarea
                  id={id}
                  name={event}
                  rows={3}
                  defaultValue={reasonsText(reasons[event])}
                  className={TEXTAREA}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
              </Field>
            );
          })}
        </div>
      )}
    </SettingsForm>
  );
}
