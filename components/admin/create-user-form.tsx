"use client";

import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { useState, useTransition, type FormEvent } from "react";
import { createUser } from "@/app/[locale]/(console)/admin/users/actions/create-user";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import type { Role } from "@/lib/auth/permissions";
import type { PublicError } from "@/lib/errors";
import { staffUserHref } from "@/lib/http/record-pages";
import { OneTimePassword } from "./one-time-password";
import { RoleOptions } from "./role-options";
import { TenantCheckboxes, type TenantChoice } from "./tenant-checkboxes";

type Outcome =
  | { readonly ok: true; readonly id: number; readonly email: string; readonly generatedPassword: string | null }
  | { readonly ok: false; readonly error: PublicError };

export function CreateUserForm({
  tenants,
  roles,
  minPasswordLength,
}: {
  tenants: readonly TenantChoice[];
  /** The roles this admin may hand out. */
  roles: readonly Role[];
  minPasswordLength: number;
}) {
  const t = useTranslations("admin");
  const [tenantIds, setTenantIds] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const refresh = useRefreshView();
  const fieldError = (name: string) => (outcome && !outcome.ok ? outcome.error.fields?.[name]?.[0] : undefined);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    startTransition(async () => {
      const result = await createUser({
        email: String(form.get("email") ?? ""),
        name: String(form.get("name") ?? ""),
        // The server validates the role; the cast only satisfies the input type.
        role: String(form.get("role") ?? "") as Role,
        tenantIds,
        password: String(form.get("password") ?? ""),
      });
      if (result.ok) {
        formElement.reset();
        setTenantIds([]);
        setOutcome({ ok: true, ...result.data });
        void refresh();
      } else {
        setOutcome({ ok: false, error: result.error });
      }
    });
  }

  return (
    <form onSubmit={onSubmit} className="max-w-xl space-y-4" noValidate aria-busy={pending}>
      {outcome?.ok ? (
        <Alert tone="success">
          {t.rich("create.created", { email: outcome.email, b: (chunks) => <b>{chunks}</b> })}{" "}
          {outcome.generatedPassword ? <OneTimePassword email={outcome.email} password={outcome.generatedPassword} /> : `${t("create.typedPassword")} `}
          <Link href={staffUserHref(outcome.id)} className="mt-1 inline-block underline">
            {t("create.open")}
          </Link>
        </Alert>
      ) : null}
      {outcome && !outcome.ok ? <Alert tone="error">{outcome.error.message}</Alert> : null}

      <Field label={t("form.email")} htmlFor="email" error={fieldError("email")}>
        <Input id="email" name="email" type="email" autoComplete="off" required aria-invalid={fieldError("email") ? true : undefined} aria-describedby={fieldError("email") ? "email-error" : undefined} />
      </Field>
      <Field label={t("form.name")} htmlFor="name" error={fieldError("name")}>
        <Input id="name" name="name" autoComplete="off" required aria-invalid={fieldError("name") ? true : undefined} aria-describedby={fieldError("name") ? "name-error" : undefined} />
      </Field>
      <Field label={t("form.role")} htmlFor="role" error={fieldError("role")}>
        <Select id="role" name="role" defaultValue={roles[0]} aria-invalid={fieldError("role") ? true : undefined}>
          <RoleOptions roles={roles} />
        </Select>
      </Field>
      <TenantCheckboxes tenants={tenants} value={tenantIds} onChange={setTenantIds} error={fieldError("tenantIds")} disabled={pending} />
      <Field label={t("create.password")} htmlFor="password" error={fieldError("password")} hint={t("create.passwordHint", { min: minPasswordLength })}>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={fieldError("password") ? true : undefined}
          aria-describedby={fieldError("password") ? "password-error" : undefined}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? t("create.pending") : t("create.submit")}
      </Button>
    </form>
  );
}
