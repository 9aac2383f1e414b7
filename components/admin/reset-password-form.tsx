"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition, type FormEvent } from "react";
import { resetPassword } from "@/app/[locale]/(console)/admin/users/actions/reset-password";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";
import { OneTimePassword } from "./one-time-password";

type Outcome = { readonly ok: true; readonly password: string } | { readonly ok: false; readonly error: PublicError };

export function ResetPasswordForm({ id, email, isSelf, minPasswordLength }: { id: number; email: string; isSelf: boolean; minPasswordLength: number }) {
  const t = useTranslations("admin.reset");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const refresh = useRefreshView();
  const passwordError = outcome && !outcome.ok ? outcome.error.fields?.password?.[0] : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const typed = String(new FormData(formElement).get("password") ?? "");
    startTransition(async () => {
      const result = await resetPassword({ id, password: typed });
      if (result.ok) {
        // Kept only in this component's state: gone on the next reset or when the page is left.
        formElement.reset();
        setOutcome({ ok: true, password: result.data.generatedPassword ?? typed });
        // The account's last change reads "password reset" now. Not one's own: that reset ended
        // this session, and reading again would leave for sign-in before the password is copied.
        if (!isSelf) void refresh();
      } else {
        setOutcome({ ok: false, error: result.error });
      }
    });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-busy={pending}>
      {outcome?.ok ? (
        <Alert tone="success">
          {t("done", { email })}
          <OneTimePassword email={email} password={outcome.password} />
        </Alert>
      ) : null}
      {outcome && !outcome.ok ? <Alert tone="error">{outcome.error.message}</Alert> : null}
      <Field label={t("password")} htmlFor="new-password" error={passwordError} hint={t("passwordHint", { min: minPasswordLength })}>
        <Input
          id="new-password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? "new-password-error" : undefined}
        />
      </Field>
      {isSelf ? <p className="text-xs text-amber-700">{t("self")}</p> : null}
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? t("pending") : t("submit")}
      </Button>
    </form>
  );
}
