"use client";

import { useState, useTransition, type FormEvent } from "react";
import { updateUser } from "@/app/(console)/admin/users/actions/update-user";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import type { Role } from "@/lib/auth/permissions";
import type { PublicError } from "@/lib/errors";
import { RoleOptions } from "./role-options";
import { TenantCheckboxes, type TenantChoice } from "./tenant-checkboxes";

type Outcome = { readonly ok: true; readonly changed: readonly string[] } | { readonly ok: false; readonly error: PublicError };

const FIELD_WORDS: Readonly<Record<string, string>> = { name: "name", role: "role", tenantIds: "tenants" };

export interface EditableUser {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantIds: readonly string[];
}

export function EditUserForm({ user, tenants, isSelf }: { user: EditableUser; tenants: readonly TenantChoice[]; isSelf: boolean }) {
  const [tenantIds, setTenantIds] = useState<string[]>([...user.tenantIds]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const fieldError = (name: string) => (outcome && !outcome.ok ? outcome.error.fields?.[name]?.[0] : undefined);

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
    });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-busy={pending}>
      {outcome?.ok && outcome.changed.length === 0 ? <Alert>Nothing to save: the account already looks like this.</Alert> : null}
      {outcome?.ok && outcome.changed.length > 0 ? (
        <Alert tone="success">
          Saved the {outcome.changed.map((f) => FIELD_WORDS[f] ?? f).join(", ")} of {user.email}. Their open sessions were signed out; the
          change applies from their next sign-in.
        </Alert>
      ) : null}
      {outcome && !outcome.ok ? <Alert tone="error">{outcome.error.message}</Alert> : null}

      <Field label="Name" htmlFor="name" error={fieldError("name")}>
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
      <Field label="Role" htmlFor="role" error={fieldError("role")}>
        <Select id="role" name="role" defaultValue={user.role} aria-invalid={fieldError("role") ? true : undefined}>
          <RoleOptions />
        </Select>
      </Field>
      <TenantCheckboxes tenants={tenants} value={tenantIds} onChange={setTenantIds} error={fieldError("tenantIds")} disabled={pending} />
      {isSelf ? <p className="text-xs text-amber-700">This is your own account: saving a change signs you out.</p> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save changes"}
      </Button>
    </form>
  );
}
