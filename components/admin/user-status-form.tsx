"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { setUserDisabled } from "@/app/[locale]/(console)/admin/users/actions/set-user-disabled";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { PublicError } from "@/lib/errors";

type Outcome = { readonly ok: true; readonly disabled: boolean; readonly changed: boolean } | { readonly ok: false; readonly error: PublicError };

export function UserStatusForm({ id, email, disabled, isSelf }: { id: number; email: string; disabled: boolean; isSelf: boolean }) {
  const t = useTranslations("admin");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();
  const refresh = useRefreshView();

  function toggle() {
    startTransition(async () => {
      const result = await setUserDisabled({ id, disabled: !disabled });
      setOutcome(result.ok ? { ok: true, ...result.data } : { ok: false, error: result.error });
      // The status shown (and so the button offered) comes from the account read again.
      if (result.ok) void refresh();
    });
  }

  return (
    <div className="space-y-3" aria-busy={pending}>
      {outcome?.ok ? (
        <Alert tone="success">
          {outcome.disabled ? t("access.disabledDone", { email }) : t("access.enabledDone", { email })}
          {outcome.changed ? "" : ` ${t("access.already")}`}
        </Alert>
      ) : null}
      {outcome && !outcome.ok ? <Alert tone="error">{outcome.error.message}</Alert> : null}
      <p className="text-sm text-slate-700">
        {t.rich("access.status", { status: disabled ? t("status.disabled") : t("status.active"), b: (chunks) => <b>{chunks}</b> })}
      </p>
      {disabled ? (
        <Button variant="secondary" onClick={toggle} disabled={pending}>
          {pending ? t("access.enabling") : t("access.enable")}
        </Button>
      ) : isSelf ? (
        <p className="text-sm text-slate-600">{t("access.self")}</p>
      ) : (
        <Button variant="danger" onClick={toggle} disabled={pending}>
          {pending ? t("access.disabling") : t("access.disable")}
        </Button>
      )}
    </div>
  );
}
