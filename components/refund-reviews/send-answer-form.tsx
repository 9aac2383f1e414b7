"use client";

import { useTranslations } from "next-intl";
import { useId, useState, useTransition, type FormEvent } from "react";
import { sendRefundReviewAnswer } from "@/app/[locale]/(console)/refund-reviews/actions/send-review-answer";
import { FailureNotice } from "@/components/orders/action-dialog";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/field";
import { AnswerTable } from "./answer-table";
import type { ActionResult } from "@/lib/auth/action";
import { REFUND_PREFERENCE, type AppleConsumptionAnswer, type RefundPreference } from "@/lib/stores/reviews/apple-answer";
import type { SendAnswerResult } from "@/lib/stores/reviews/send-answer";

const PREFERENCES = Object.values(REFUND_PREFERENCE);

/**
 * The answer as it will go out: the table follows the agent's part of it — the player's consent (the
 * ledger cannot know it) and the refund preference — as they choose, before they send; everything
 * else is the ledger's and is prefilled again when it is sent.
 */
export function SendAnswerForm({ reviewId, prefilled, caption }: { reviewId: number; prefilled: AppleConsumptionAnswer; caption: string }) {
  const t = useTranslations("refundReviews.send");
  const values = useTranslations("refundReviews.answer.values.refundPreference");
  const refresh = useRefreshView();
  const id = useId();
  const [result, setResult] = useState<ActionResult<SendAnswerResult> | null>(null);
  const [working, startTransition] = useTransition();
  const [consented, setConsented] = useState(false);
  const [refundPreference, setRefundPreference] = useState<RefundPreference>(prefilled.refundPreference);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const sent = await sendRefundReviewAnswer({ reviewId, customerConsented: consented, refundPreference });
      setResult(sent);
      // The review changed (queued, answered meanwhile, expired): its page reads it again. A refusal
      // changed nothing, and the form keeps what was chosen.
      if (sent.ok && sent.data.result !== "consent-missing") await refresh();
    });
  }

  return (
    <>
      <AnswerTable answer={{ ...prefilled, customerConsented: consented, refundPreference }} caption={caption} testId="review-answer" />
      <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-5" data-testid="send-answer-form" aria-busy={working}>
        <div className="flex items-start gap-2">
          <input
            id={`${id}-consent`}
            name="customerConsented"
            type="checkbox"
            className="mt-0.5 h-4 w-4"
            aria-describedby={`${id}-consent-hint`}
            checked={consented}
            onChange={(e) => setConsented(e.target.checked)}
          />
          <div>
            <label htmlFor={`${id}-consent`} className="text-sm font-medium text-slate-700">
              {t("consent")}
            </label>
            <p id={`${id}-consent-hint`} className="text-xs text-slate-600">
              {t("consentHint")}
            </p>
          </div>
        </div>
        <Field label={t("preference")} htmlFor={`${id}-preference`}>
          <Select
            id={`${id}-preference`}
            name="refundPreference"
            value={String(refundPreference)}
            onChange={(e) => setRefundPreference(Number(e.target.value) as RefundPreference)}
            className="max-w-sm"
          >
            {PREFERENCES.map((p) => (
              <option key={p} value={p}>
                {values(String(p) as "0")}
              </option>
            ))}
          </Select>
        </Field>
        {result && !result.ok ? <FailureNotice error={result.error} shownFields={new Set()} /> : null}
        {result?.ok ? <Alert tone={result.data.result === "queued" ? "success" : "error"}>{t(`results.${result.data.result}`)}</Alert> : null}
        <Button type="submit" disabled={working} data-testid="send-answer">
          {t("submit")}
        </Button>
      </form>
    </>
  );
}
