"use client";

import { useState, useTransition } from "react";
import { createApiKeyAction } from "@/app/(console)/admin/api-keys/actions/create-api-key";
import { revokeApiKeyAction } from "@/app/(console)/admin/api-keys/actions/revoke-api-key";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input, Select } from "@/components/ui/field";

export function CreateApiKeyForm({ tenants }: { tenants: readonly string[] }) {
  const [created, setCreated] = useState<{ key: string; prefix: string } | null>(null);
  const [error, setError] = useState<{ message: string; fields?: Record<string, string[]> } | null>(null);
  const [busy, startTransition] = useTransition();
  return (
    <form
      className="space-y-3"
      action={(form) =>
        startTransition(async () => {
          const result = await createApiKeyAction({ tenant: String(form.get("tenant")), name: String(form.get("name") ?? "") });
          if (result.ok) {
            setCreated(result.data);
            setError(null);
          } else setError(result.error);
        })
      }
    >
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Product" htmlFor="key-tenant">
          <Select id="key-tenant" name="tenant">
            {tenants.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Select>
        </Field>
        <Field label="Name (who uses it)" htmlFor="key-name" error={error?.fields?.name?.[0]}>
          <Input id="key-name" name="name" placeholder="alipay-callbacks" required />
        </Field>
        <Button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create key"}
        </Button>
      </div>
      {error && !error.fields ? <Alert tone="error">{error.message}</Alert> : null}
      {created ? (
        <Alert tone="success">
          <p>Store this key now: it is shown once and never again.</p>
          <p className="mt-1 break-all font-mono text-xs">
            {created.key} <CopyButton value={created.key} label="Copy key" />
          </p>
        </Alert>
      ) : null}
    </form>
  );
}

export function RevokeApiKeyButton({ prefix }: { prefix: string }) {
  const [busy, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span>
      <Button
        variant="danger"
        className="px-2 py-1 text-xs"
        disabled={busy}
        onClick={() => {
          if (!window.confirm(`Revoke key ${prefix}? Every call with it fails from now on.`)) return;
          startTransition(async () => {
            const result = await revokeApiKeyAction({ prefix });
            if (!result.ok) setError(result.error.message);
          });
        }}
      >
        Revoke
      </Button>
      {error ? <span className="ml-2 text-xs text-red-700">{error}</span> : null}
    </span>
  );
}
