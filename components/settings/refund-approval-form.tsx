"use client";

import { useLocale, useTranslations } from "next-intl";
import { updateRefundApproval } from "@/app/[locale]/(console)/settings/actions/update-refund-approval";
import { Field, Input } from "@/components/ui/field";
import { formatMoney } from "@/lib/format";
import { SettingsForm } from "./settings-form";

/** Minor units as the text parseMoney() reads back: 12850 → "128.50" (integer arithmetic, no float). */
function moneyText(minor: number): string {
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}

export function RefundApprovalForm({ tenant, updatedAt, amount, currency }: { tenant: string; updatedAt: string; amount: number; currency: string }) {
  const t = useTranslations("settings.refund");
  const locale = useLocale();
  const id = `refund-approval-${tenant}`;
  return (
    <SettingsForm
      updatedAt={updatedAt}
      testId={`refund-form-${tenant}`}
      onSubmit={(form, expectedUpdatedAt) => updateRefundApproval({ tenant, expectedUpdatedAt, amount: String(form.get("amount") ?? "") })}
    >
      {({ fieldError }) => (
        <Field label={t("field", { currency })} htmlFor={id} error={fieldError("amount")} hint={t("hint", { amount: formatMoney(amount, currency, locale) })}>
          <div className="max-w-48">
            <Input
              id={id}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={moneyText(amount)}
              className="tabular-nums"
              aria-invalid={fieldError("amount") ? true : undefined}
              aria-describedby={fieldError("amount") ? `${id}-error` : undefined}
            />
          </div>
        </Field>
      )}
    </SettingsForm>
  );
}
