"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { decideApproval } from "@/app/[locale]/(console)/approvals/actions/decide-approval";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TEXTAREA } from "@/components/ui/dialog";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import type { Locale } from "@/lib/i18n/locales";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH } from "@/lib/orders/console-event";

/**
 * `refusedBefore`: refunds of this order refused before (listed on the card): said again beside Approve.
 * `onDecided`: the request was decided (by this click, or by someone else first): the page reads its list again.
 */
export function ApprovalDecision({ id, refusedBefore = 0, onDecided }: { id: number; refusedBefore?: number; onDecided: () => void }) {
  const t = useTranslations("approvals");
  const all = useTranslations() as unknown as Translate;
  const locale = useLocale() as Locale;
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();

  function decide(approve: boolean) {
    startTransition(async () => {
      const result = await decideApproval({ id, approve, reason });
      if (!result.ok) {
        // Decided by someone else meanwhile: the list is read again (this card stays, saying so). Either way what was typed stays.
        if (result.error.code === "conflict") onDecided();
        return setMessage({ tone: "error", text: result.error.fields?.reason?.[0] ?? result.error.message });
      }
      const d = result.data;
      onDecided();
      setMessage(
        d.result === "approved"
          ? { tone: "success", text: t("approved") }
          : d.result === "rejected"
            ? { tone: "success", text: t("rejected") }
            : { tone: "error", text: t("notApplied", { reason: describeProblem(d.refusal, all, locale) }) },
      );
    });
  }

  return (
    <div className="space-y-2">
      <label htmlFor={`decision-${id}`} className="block text-xs font-medium text-slate-600">
        {t("decisionReason")}
      </label>
      <textarea id={`decision-${id}`} rows={2} minLength={MIN_REASON_LENGTH} maxLength={MAX_REASON_LENGTH} value={reason} onChange={(e) => setReason(e.target.value)} className={TEXTAREA} />
      {refusedBefore > 0 && message?.tone !== "success" ? <p className="text-xs text-orange-900">{t("refusedBefore", { count: refusedBefore })}</p> : null}
      <div className={`flex gap-2 ${message?.tone === "success" ? "hidden" : ""}`}>
        <Button disabled={busy} onClick={() => decide(true)}>
          {t("approve")}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => decide(false)}>
          {t("reject")}
        </Button>
      </div>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </div>
  );
}
