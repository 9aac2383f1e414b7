"use client";

import { signIn } from "next-auth/react";
import { useLocale, useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import type { Locale } from "@/lib/i18n/locales";
import type { Problem } from "@/lib/problems";

/** next-auth hands the sign-in refusal over as a string: the problem as JSON (lib/auth/options.ts). */
function refusal(error: string | null | undefined): Problem {
  try {
    const parsed = JSON.parse(error ?? "") as Problem;
    if (parsed && typeof parsed.kind === "string") return parsed;
  } catch {
    // next-auth's own codes (CredentialsSignin, …): the same answer as a wrong password.
  }
  return { kind: "sign-in-invalid" };
}

export function SignInForm() {
  const t = useTranslations("signIn");
  const all = useTranslations() as unknown as Translate;
  const locale = useLocale() as Locale;
  // Only ever return to a path on this site (a repeated parameter is nobody's link of ours).
  const asked = useSearchParams().getAll("callbackUrl");
  const callbackUrl = safeCallbackPath(asked.length === 1 ? asked[0] : null);
  const [error, setError] = useState<Problem | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      redirect: false,
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    setPending(false);
    if (!result || result.error) {
      setError(refusal(result?.error));
      return;
    }
    // A whole page load: the console opens in the account's language (signing in set the locale
    // cookie), with nothing kept from before.
    location.replace(callbackUrl);
  }

  const message = error ? describeProblem(error, all, locale) : null;
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      {message ? <Alert tone="error">{`${message.charAt(0).toUpperCase()}${message.slice(1)}${locale === "zh" ? "。" : "."}`}</Alert> : null}
      <Field label={t("email")} htmlFor="email">
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </Field>
      <Field label={t("password")} htmlFor="password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? t("working") : t("submit")}
      </Button>
    </form>
  );
}
