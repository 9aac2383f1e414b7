"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { createApiKeyAction } from "@/app/[locale]/(console)/admin/api-keys/actions/create-api-key";
import { revokeApiKeyAction } from "@/app/[locale]/(console)/admin/api-keys/actions/revoke-api-key";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input, Select } from "@/components/ui/field";
import type { PublicError } from "@/lib/errors";

export function CreateApiKeyForm({ tenants }: { tenants: readonly string[] }) {
  const t = useTranslations("admin.apiKeys");
  const [created, setCreated] = useState<{ key: string; prefix: string } | null>(null);
  const [error, setError] = useState<PublicError | null>(null);
  const [busy, startTransition] = useTransition();
  const refresh = useRefreshView();
  const nameError = error?.fields?.name?.[0];
  return (
    <form
      className="space-y-3"
      action={(form) =>
        startTransition(async () => {
          const result = await createApiKeyAction({ tenant: String(form.get("tenant")), name: String(form.get("name") ?? "") });
          if (result.ok) {
            // The secret is shown from this answer, once; the list read again names the key by its prefix only.
            setCreated(result.data);
            setError(null);
            void refresh();
          } else setError(result.error);
        })
      }
    >
      <div className="flex flex-wrap items-end gap-3">
        <Field label={t("product")} htmlFor="key-tenant">
          <Select id="key-tenant" name="tenant">
            {tenants.map((tenant) => (
              <option key={tenant}>{tenant}</option>
            ))}
          </Select>
        </Field>
        <Field label={t("name")} htmlFor="key-name" error={nameError}>
          <Input
            id="key-name"
            name="name"
            placeholder="alipay-callbacks"
            required
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "key-name-error" : undefined}
          />
        </Field>
        <Button type="submit" disabled={busy}>
          {busy ? t("creating") : t("create")}
        </Button>
      </div>
      {error && !nameError ? <Alert tone="error">{error.message}</Alert> : null}
      {created ? (
        <Alert tone="success">
          <p>{t("storeNow")}</p>
          <p className="mt-1 break-all font-mono text-xs">
            {created.key} <CopyButton value={created.key} label={t("copy")} />
          </p>
        </Alert>
      ) : null}
    </form>
  );
}

export function RevokeApiKeyButton({ prefix }: { prefix: string }) {
  const t = useTranslations("admin.apiKeys");
  const [busy, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const refresh = useRefreshView();
  return (
    <span>
      <Button
        variant="danger"
        className="px-2 py-1 text-xs"
        disabled={busy}
        onClick={() => {
          if (!window.confirm(t("confirmRevoke", { prefix }))) return;
          startTransition(async () => {
            const result = await revokeApiKeyAction({ prefix });
            setError(result.ok ? null : result.error.message);
            if (result.ok) void refresh();
          });
        }}
      >
        {t("revoke")}
      </Button>
      {error ? <span className="ml-2 text-xs text-red-700">{error}</span> : null}
    </span>
  );
}
