"use client";

import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
import { setLocale } from "@/app/[locale]/(console)/profile/actions/set-locale";
import { LOCALES, type Locale } from "@/lib/i18n/locales";

const NAMES: Readonly<Record<Locale, string>> = { en: "English", zh: "简体中文" };

export function LocaleSwitcher() {
  const t = useTranslations("nav");
  const locale = useLocale();
  const [pending, startTransition] = useTransition();
  return (
    <label className="flex items-center gap-1 text-xs text-slate-600">
      <span className="sr-only">{t("language")}</span>
      <select
        aria-label={t("language")}
        className="rounded border border-slate-300 bg-white px-1 py-0.5"
        value={locale}
        disabled={pending}
        onChange={(e) =>
          startTransition(async () => {
            const result = await setLocale({ locale: e.target.value as Locale });
            // The pages of the other language are other files (proxy.ts picks them by the cookie the action set).
            if (result.ok) location.reload();
          })
        }
      >
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
