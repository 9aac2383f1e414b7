"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition, type FormEvent } from "react";
import { updateUser } from "@/app/[locale]/(console)/admin/users/actions/update-user";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import type { Role } from "@/lib/auth/permissions";
import type { PublicError } from "@/lib/errors";
import { RoleOptions } from "./role-options";
import { TenantCheckboxes, type TenantChoice } from "./tenant-checkboxes";

type ChangedField = "name" | "role" | "tenantIds";
type Outcome = { readonly ok: true; readonly changed: readonly ChangedField[] } | { readonly ok: false; readonly error: PublicError };

export interface EditableUser {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantIds: readonly string[];
}

export function EditUserForm({
  user,
  tenants,
  roles,
  isSelf,
}: {
  user: EditableUser;
  tenants: readonly TenantChoice[];
  /** The roles this admin may hand out (and the account's own). */
  roles: readonly Role[];
  isSelf: boolean;
}) {
  const t = useTranslations("admin");
  const locale = useLocale();
  const [tenantIds, setTenantIds] = useState<string[]>([...user.tenantIds]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const refresh = useRefreshView();
  const fieldError = (name: string) => (outcome && !outcome.ok ? outcome.error.fields?.[name]?.[0] : undefined);
  const fieldList = (fields: readonly ChangedField[]) =>
    new Intl.ListFormat(locale, { type: "conjunction" }).format(fields.map((f) => t(`edit.fields.${f}`)));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await updateUser({
        id: user.id,
        name: String(form.get("name") ?? ""),
        // The server validates the role; the cast only satisfies the input type.
        role: String(form.get("role") ?? "") as Role,
        tenantIds,
      });
      setOutcome(result.ok ? { ok: true, changed: result.data.changed } : { ok: false, error: result.error });
      // The page's header (role) reads the account again; the form keeps what was typed. On one's own
      // account the change has ended the session: the read is refused and sends to sign-in, as said.
      if (result.ok && result.data.changed.length > 0) void refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-busy={pending}>
      {outcome?.ok && outcome.changed.length === 0 ? <Alert>{t("edit.unchanged")}</Alert> : null}
      {outcome?.ok && outcome.changed.length > 0 ? <Alert tone="success">{t("edit.saved", { fields: fieldList(outcome.changed), email: user.email })}</Alert> : null}
      {outcome && !outcome.ok ? <Alert tone="error">{outcome.error.message}</Alert> : null}

      <Field label={t("form.name")} htmlFor="name" error={fieldError("name")}>
        <Input
          id="name"
          name="name"
          defaultValue={user.name}
          autoComplete="off"
          required
          aria-invalid={fieldError("name") ? true : undefined}
          aria-describedby={fieldError("name") ? "name-error" : undefined}
        />
      </Field>
      <Field label={t("form.role")} htmlFor="role" error={fieldError("role")}>
        <Select id="role" name="role" defaultValue={user.role} aria-invalid={fieldError("role") ? true : undefined}>
          <RoleOptions roles={roles} />
        </Select>
      </Field>
      <TenantCheckboxes tenants={tenants} value={tenantIds} onChange={setTenantIds} error={fieldError("tenantIds")} disabled={pending} />
      {isSelf ? <p className="text-xs text-amber-700">{t("edit.self")}</p> : null}
      <Button type="submit" disabled={pending}>
        {pending ? t("edit.pending") : t("edit.submit")}
      </Button>
    </form>
  );
}
