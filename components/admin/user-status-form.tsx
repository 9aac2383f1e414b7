"use client";

import { useState, useTransition } from "react";
import { setUserDisabled } from "@/app/(console)/admin/users/actions/set-user-disabled";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { PublicError } from "@/lib/errors";

type Outcome = { readonly ok: true; readonly disabled: boolean; readonly changed: boolean } | { readonly ok: false; readonly error: PublicError };

export function UserStatusForm({ id, email, disabled, isSelf }: { id: number; email: string; disabled: boolean; isSelf: boolean }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();

  function toggle() {
    startTransition(async () => {
      const result = await setUserDisabled({ id, disabled: !disabled });
      setOutcome(result.ok ? { ok: true, ...result.data } : { ok: false, error: result.error });
    });
  }

  return (
    <div className="space-y-3" aria-busy={pending}>
      {outcome?.ok ? (
        <Alert tone="success">
          {outcome.disabled
            ? `${email} is disabled: they cannot sign in, and their open sessions were signed out.`
            : `${email} is enabled again and can sign in.`}
          {outcome.changed ? "" : " (It already was.)"}
        </Alert>
      ) : null}
      {outcome && !outcome.ok ? <Alert tone="error">{outcome.error.message}</Alert> : null}
      <p className="text-sm text-slate-700">
        Status: <b>{disabled ? "disabled" : "active"}</b>
      </p>
      {disabled ? (
        <Button variant="secondary" onClick={toggle} disabled={pending}>
          {pending ? "Enabling…" : "Enable account"}
        </Button>
      ) : isSelf ? (
        <p className="text-sm text-slate-600">You cannot disable your own account; ask another admin.</p>
      ) : (
        <Button variant="danger" onClick={toggle} disabled={pending}>
          {pending ? "Disabling…" : "Disable account"}
        </Button>
      )}
    </div>
  );
}
