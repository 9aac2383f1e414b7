"use client";

import { useTranslations } from "next-intl";
import { updateRefundReviews } from "@/app/[locale]/(console)/settings/actions/update-refund-reviews";
import { SettingsForm } from "./settings-form";

export function RefundReviewsForm({ tenant, updatedAt, autoSend }: { tenant: string; updatedAt: string; autoSend: boolean }) {
  const t = useTranslations("settings.refundReviews");
  const id = `refund-reviews-${tenant}-auto`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`refund-reviews-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) => updateRefundReviews({ tenant, expectedUpdatedAt, autoSend: form.get("autoSend") === "on" })}
    >
      {() => (
        <div className="flex items-start gap-2">
          <input id={id} name="autoSend" type="checkbox" defaultChecked={autoSend} className="mt-0.5 h-4 w-4" aria-describedby={`${id}-hint`} />
          <div>
            <label htmlFor={id} className="text-sm font-medium text-slate-700">
              {t("autoSend")}
            </label>
            <p id={`${id}-hint`} className="text-xs text-slate-600">
              {t("autoSendHint")}
            </p>
          </div>
        </div>
      )}
    </SettingsForm>
  );
}
