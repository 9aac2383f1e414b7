"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { previewBulk } from "@/app/[locale]/(console)/bulk/actions/preview-bulk";
import { runBulkChunk } from "@/app/[locale]/(console)/bulk/actions/run-bulk-chunk";
import { startBulk } from "@/app/[locale]/(console)/bulk/actions/start-bulk";
import { BatchProgress, runToEnd } from "@/components/bulk/batch-progress";
import { useRefreshView } from "@/components/query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TEXTAREA } from "@/components/ui/dialog";
import { Field, Select } from "@/components/ui/field";
import type { BatchSummary, ItemRow, PreviewRow } from "@/lib/bulk/batches";
import { describeItem, describeStep } from "@/lib/bulk/describe-item";
import { describeProblem, type Translate } from "@/lib/i18n/describe-problem";
import type { Locale } from "@/lib/i18n/locales";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import type { BulkBatchResults } from "@/lib/read/bulk";
import { readModel } from "@/lib/read/wire";

interface Preview {
  readonly batchId: string;
  readonly tenant: string;
  readonly rows: readonly PreviewRow[];
  readonly duplicates: number;
}

export function BulkCompensation({ tenants }: { tenants: readonly string[] }) {
  const t = useTranslations("bulk");
  const all = useTranslations() as unknown as Translate;
  const locale = useLocale() as Locale;
  const states = useTranslations("state");
  const [text, setText] = useState("");
  const [tenant, setTenant] = useState(tenants[0] ?? "");
  const [reason, setReason] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [summary, setSummary] = useState<BatchSummary | null>(null);
  const [items, setItems] = useState<readonly ItemRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const [file, setFile] = useState<{ name: string; lines: number } | null>(null);
  const fileId = useId();
  const refreshView = useRefreshView();

  function runPreview() {
    setError(null);
    setSummary(null);
    setItems(null);
    startTransition(async () => {
      const result = await previewBulk({ tenant, text });
      if (result.ok) setPreview({ ...result.data, tenant });
      else setError(result.error.message);
    });
  }

  function apply() {
    if (!preview) return;
    setError(null);
    startTransition(async () => {
      const started = await startBulk({ batchId: preview.batchId, tenant: preview.tenant, orderNos: preview.rows.map((r) => r.orderNo), reason });
      if (!started.ok) return setError(started.error.fields?.reason?.[0] ?? started.error.message);
      setSummary(started.data);
      // Work through the batch a chunk at a time, showing progress.
      const refused = await runToEnd(() => runBulkChunk({ batchId: preview.batchId }), setSummary);
      if (refused) return setError(refused.message);
      try {
        setItems((await readModel<BulkBatchResults>(`/api/console/bulk/${preview.batchId}`)).items);
      } catch {
        // The batch ran; only its table could not be read: the past batches below list its results.
      }
      // The past batches below now include this one.
      await refreshView();
    });
  }

  const willApply = preview?.rows.filter((r) => r.willApply).length ?? 0;
  const finished = summary !== null && summary.counts.pending === 0 && items !== null;

  return (
    <div className="space-y-6">
      <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-5">
        <Field label={t("tenant")} htmlFor="bulk-tenant">
          <Select id="bulk-tenant" value={tenant} onChange={(e) => setTenant(e.target.value)} className="max-w-xs">
            {tenants.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t("orders")} htmlFor="bulk-orders">
          <textarea id="bulk-orders" rows={6} value={text} onChange={(e) => setText(e.target.value)} className={`${TEXTAREA} font-mono`} />
        </Field>
        {/* The native control stays (keyboard, screen readers, drag and drop) but out of sight: its
            label is the button, and the chosen file is said beside it in the UI's language. */}
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-slate-700">{t("upload")}</span>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv,text/plain"
            className="peer sr-only"
            data-testid="bulk-file"
            onChange={async (e) => {
              const chosen = e.target.files?.[0];
              if (!chosen) return;
              const content = await chosen.text();
              setText(content);
              setFile({ name: chosen.name, lines: content.split(/\r?\n/).filter((l) => l.trim() !== "").length });
            }}
          />
          <label
            htmlFor={fileId}
            className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-2 font-medium text-slate-900 hover:bg-slate-100 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-slate-900"
          >
            {t("chooseFile")}
          </label>
          <span className="text-slate-600" aria-live="polite">
            {file ? t("fileChosen", { name: file.name, lines: file.lines }) : t("noFile")}
          </span>
        </div>
        <Button onClick={runPreview} disabled={busy || text.trim() === ""}>
          {busy && !preview ? t("previewing") : t("preview")}
        </Button>
        {error ? <Alert tone="error">{error}</Alert> : null}
        {!preview && !error ? <p className="text-sm text-slate-500">{t("empty")}</p> : null}
      </section>

      {preview ? (
        <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-5">
          <h2 className="font-semibold">{t("batch", { id: preview.batchId })}</h2>
          <p className="text-sm">
            {t("previewSummary", { total: preview.rows.length, apply: willApply, skip: preview.rows.length - willApply })}{" "}
            {preview.duplicates > 0 ? t("duplicates", { count: preview.duplicates }) : null}
          </p>
          <div className="max-h-80 overflow-auto">
            <table className="w-full text-sm">
              <thead className="sticky top-0 bg-white text-left text-slate-500">
                <tr>
                  <th className="font-medium">{t("colOrder")}</th>
                  <th className="font-medium">{t("colState")}</th>
                  <th className="font-medium">{t("colPlan")}</th>
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((r) => (
                  <tr key={r.orderNo} className={r.willApply ? "" : "text-slate-500"}>
                    <td className="font-mono">{r.orderNo}</td>
                    <td>{r.state ? states(r.state) : "—"}</td>
                    <td>{r.willApply ? r.steps.map((step) => describeStep(step, all, locale)).join("; ") : describeProblem(r.problem, all, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Field label={t("reason")} htmlFor="bulk-reason">
            <textarea id="bulk-reason" rows={2} minLength={MIN_REASON_LENGTH} value={reason} onChange={(e) => setReason(e.target.value)} className={TEXTAREA} />
          </Field>
          <Button onClick={apply} disabled={busy || willApply === 0}>
            {busy ? t("applying") : finished && summary.counts.failed > 0 ? t("retry") : t("apply")}
          </Button>
          {summary ? <BatchProgress summary={summary} label={(done, total) => t("progress", { done, total })} /> : null}
        </section>
      ) : null}

      {finished && preview ? (
        <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-5" data-testid="bulk-results">
          <Alert tone={summary.counts.failed > 0 ? "error" : "success"}>
            {t("done", {
              applied: summary.counts.applied,
              nothing: summary.counts["nothing-to-do"],
              refused: summary.counts.refused,
              failed: summary.counts.failed,
            })}
          </Alert>
          <a className="text-sm underline" href={`/api/console/bulk/${preview.batchId}?format=csv`}>
            {t("download")}
          </a>
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="font-medium">{t("colOrder")}</th>
                <th className="font-medium">{t("colStatus")}</th>
                <th className="font-medium">{t("colDetail")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.orderNo}>
                  <td className="font-mono">{i.orderNo}</td>
                  <td>{t(`itemStatus.${i.status}`)}</td>
                  <td className="text-xs">{describeItem(i.detail, all, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
