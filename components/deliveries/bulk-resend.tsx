"use client";

import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { previewBulkResend } from "@/app/[locale]/(console)/deliveries/actions/preview-bulk-resend";
import { runBulkResendChunk } from "@/app/[locale]/(console)/deliveries/actions/run-bulk-resend-chunk";
import { startBulkResend } from "@/app/[locale]/(console)/deliveries/actions/start-bulk-resend";
import { BatchProgress, runToEnd } from "@/components/bulk/batch-progress";
import { FailureNotice } from "@/components/orders/action-dialog";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TEXTAREA } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Link } from "@/components/ui/link";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { PublicError } from "@/lib/errors";
import type { BatchSummary } from "@/lib/bulk/batches";
import type { ResendPreview } from "@/lib/deliveries/bulk-resend";
import { MAX_RESEND_BATCH } from "@/lib/deliveries/resend-limit";
import { MAX_REASON_LENGTH, MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import { deliveryHref } from "@/lib/http/record-pages";

interface Preview extends ResendPreview {
  readonly batchId: string;
}

/**
 * Bulk resend (issue 27, item 2): every dead webhook message of one product since a time. First a
 * preview (the count and the oldest few; nothing is sent), then, with a reason, a bulk batch that
 * resends them a chunk at a time with its progress. The batch's id comes with the preview: a double
 * click, or a second tab running the same preview, is the same batch.
 */
export function BulkResend({ tenant, since }: { tenant: string; since: string }) {
  const t = useTranslations("deliveries.bulkResend");
  const id = useId();
  const refresh = useRefreshView();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [reason, setReason] = useState("");
  const [summary, setSummary] = useState<BatchSummary | null>(null);
  const [error, setError] = useState<PublicError | null>(null);
  const [busy, start] = useTransition();
  const reasonError = error?.fields?.reason?.[0];

  function runPreview() {
    setError(null);
    setSummary(null);
    start(async () => {
      const result = await previewBulkResend({ tenant, since });
      if (result.ok) setPreview(result.data);
      else setError(result.error);
    });
  }

  function resendAll() {
    if (!preview) return;
    setError(null);
    start(async () => {
      const started = await startBulkResend({ batchId: preview.batchId, tenant, since, reason });
      if (!started.ok) return setError(started.error);
      setSummary(started.data);
      // A chunk at a time, showing progress.
      const refused = await runToEnd(() => runBulkResendChunk({ batchId: preview.batchId }), setSummary);
      if (refused) return setError(refused);
      // The list above now shows them queued again.
      await refresh();
    });
  }

  const finished = summary !== null && summary.counts.pending === 0;
  const tooMany = preview !== null && preview.count > MAX_RESEND_BATCH;

  return (
    <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" data-testid="bulk-resend" aria-busy={busy}>
      <p className="text-sm text-slate-700">{t("intro", { tenant, since })}</p>
      {!preview ? (
        <Button onClick={runPreview} disabled={busy} data-testid="bulk-resend-preview">
          {busy ? t("previewing") : t("preview")}
        </Button>
      ) : preview.count === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="bulk-resend-empty">
          {t("none", { tenant, since })}
        </p>
      ) : (
        <>
          <p className="text-sm font-medium" data-testid="bulk-resend-count">
            {t("count", { count: preview.count, tenant, since })}
          </p>
          <Table
            caption={t("sampleCaption", { shown: preview.sample.length, count: preview.count })}
            testId="bulk-resend-sample"
            columns={[{ label: t("columns.message") }, { label: t("columns.order") }, { label: t("columns.created") }, { label: t("columns.lastError") }]}
          >
            <tbody>
              {preview.sample.map((r) => (
                <tr key={r.id} className="border-b border-slate-100 align-top last:border-0">
                  <td className="p-2">
                    <Link href={deliveryHref(r.id)} className="font-mono underline-offset-2 hover:underline">
                      #{r.id}
                    </Link>
                    <div className="font-mono text-xs text-slate-600">{r.topic}</div>
                  </td>
                  <td className="p-2 font-mono">{r.orderNo ?? "—"}</td>
                  <td className="p-2 text-xs">
                    <Time value={r.createdAt} />
                  </td>
                  <td className="max-w-xs break-words p-2 text-xs text-red-800">{r.lastError ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          {tooMany ? (
            <Alert tone="warning">{t("tooMany", { max: MAX_RESEND_BATCH })}</Alert>
          ) : (
            <>
              <Field label={t("reason")} htmlFor={`${id}-reason`} error={reasonError}>
                <textarea
                  id={`${id}-reason`}
                  name="reason"
                  rows={2}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  required
                  minLength={MIN_REASON_LENGTH}
                  maxLength={MAX_REASON_LENGTH}
                  className={TEXTAREA}
                  aria-invalid={reasonError !== undefined}
                  aria-describedby={reasonError !== undefined ? `${id}-reason-error` : undefined}
                />
              </Field>
              <Button onClick={resendAll} disabled={busy || (finished && summary.counts.failed === 0)} data-testid="bulk-resend-start">
                {busy && summary ? t("working") : finished && summary.counts.failed > 0 ? t("retry") : t("submit", { count: preview.count })}
              </Button>
            </>
          )}
        </>
      )}
      {error ? <FailureNotice error={error} shownFields={new Set(["reason"])} /> : null}
      {summary ? <BatchProgress summary={summary} label={(done, total) => t("progress", { done, total })} /> : null}
      {finished ? (
        <Alert tone={summary.counts.failed > 0 ? "error" : "success"}>
          <span data-testid="bulk-resend-done">
            {t("done", { resent: summary.counts.applied, skipped: summary.counts["nothing-to-do"], refused: summary.counts.refused, failed: summary.counts.failed })}
          </span>
        </Alert>
      ) : null}
    </div>
  );
}
