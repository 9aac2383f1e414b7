"use client";

import { useTranslations } from "next-intl";

/** A password shown once, selectable as a whole, with the reminder that it will not be shown again. */
export function OneTimePassword({ email, password }: { email: string; password: string }) {
  const t = useTranslations("admin.oneTimePassword");
  return (
    <span className="mt-1 block">
      {t("label", { email })}{" "}
      <code className="select-all rounded bg-white px-1.5 py-0.5 font-mono text-sm text-slate-900" data-testid="one-time-password">
        {password}
      </code>
      <span className="mt-1 block text-xs">{t("note")}</span>
    </span>
  );
}
