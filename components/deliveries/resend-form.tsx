"use client";

import { useTranslations } from "next-intl";
import { useId, useState, useTransition, type FormEvent } from "react";
import { resendMessage } from "@/app/[locale]/(console)/deliveries/actions/resend-message";
import { FailureNotice } from "@/components/orders/action-dialog";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TEXTAREA } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import type { ActionResult } from "@/lib/auth/action";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import type { ResendResult } from "@/lib/deliveries/resend";

/**
 * Sends the message again, with a reason. The request key is made once per form and again only
 * after a resend went through: a double click, or a retry after a timeout, is one resend.
 */
export function ResendForm({ messageId, onItsWay }: { messageId: number; onItsWay: boolean }) {
  const t = useTranslations("deliveries.resend");
  const refresh = useRefreshView();
  const id = useId();
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState("");
  const [result, setResult] = useState<ActionResult<ResendResult> | null>(null);
  const [working, start] = useTransition();
  const reasonError = result && !result.ok ? result.error.fields?.reason?.[0] : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    start(async () => {
      const sent = await resendMessage({ messageId, reason, requestKey: key });
      setResult(sent);
      if (sent.ok) {
        setKey(crypto.randomUUID());
        if (sent.data.result === "resent") setReason("");
        await refresh();
      }
    });
  }

  return (
    <form onSubmit={submit} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-busy={working} data-testid="resend-form">
      <p className="text-sm text-slate-700">{t("intro")}</p>
      {onItsWay ? <p className="text-sm text-slate-600">{t("blocked.on-its-way")}</p> : null}
      <Field label={t("reason")} htmlFor={`${id}-reason`} error={reasonError}>
        <textarea
          id={`${id}-reason`}
          name="reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          minLength={MIN_REASON_LENGTH}
          maxLength={MAX_REASON_LENGTH}
          rows={2}
          className={TEXTAREA}
          aria-invalid={reasonError !== undefined}
          aria-describedby={reasonError !== undefined ? `${id}-reason-error` : undefined}
        />
      </Field>
      {result && !result.ok ? <FailureNotice error={result.error} shownFields={new Set(["reason"])} /> : null}
      {result?.ok ? <Alert tone={result.data.result === "resent" || result.data.result === "duplicate" ? "success" : "warning"}>{t(`results.${result.data.result}`)}</Alert> : null}
      <Button type="submit" disabled={working || onItsWay} data-testid="resend">
        {working ? t("working") : t("submit")}
      </Button>
    </form>
  );
}
