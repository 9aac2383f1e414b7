"use client";

import { useTranslations } from "next-intl";
import { useId, useState, useTransition, type FormEvent } from "react";
import { testSend } from "@/app/[locale]/(console)/deliveries/actions/test-send";
import { FailureNotice } from "@/components/orders/action-dialog";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/field";
import type { TenantChoice } from "@/lib/audit/queries/tenant-choices";
import type { ActionResult } from "@/lib/auth/action";
import type { TestSendResult } from "@/lib/deliveries/test-send";
import { TEST_ENDPOINTS, type TestEndpoint } from "@/lib/deliveries/test-endpoints";

/** A signed ping to one of a product's endpoints: its status, its latency, and whether it answered in time. */
export function TestSendForm({ tenants }: { tenants: readonly TenantChoice[] }) {
  const t = useTranslations("deliveries.testSend");
  const id = useId();
  const [result, setResult] = useState<ActionResult<TestSendResult> | null>(null);
  const [working, start] = useTransition();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    start(async () => setResult(await testSend({ tenant: String(form.get("tenant") ?? ""), endpoint: String(form.get("endpoint") ?? "") as TestEndpoint })));
  }

  return (
    <form onSubmit={submit} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-busy={working} data-testid="test-send-form">
      <p className="text-sm text-slate-700">{t("intro")}</p>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label={t("tenant")} htmlFor={`${id}-tenant`}>
          <Select id={`${id}-tenant`} name="tenant">
            {tenants.map((tenant) => (
              <option key={tenant.id} value={tenant.id}>
                {tenant.name} ({tenant.id})
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t("endpoint")} htmlFor={`${id}-endpoint`}>
          <Select id={`${id}-endpoint`} name="endpoint">
            {TEST_ENDPOINTS.map((e) => (
              <option key={e} value={e}>
                {t(`endpoints.${e}`)}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex items-end">
          <Button type="submit" disabled={working} data-testid="test-send">
            {working ? t("working") : t("submit")}
          </Button>
        </div>
      </div>
      {result && !result.ok ? <FailureNotice error={result.error} shownFields={new Set(["tenant", "endpoint"])} /> : null}
      {result?.ok ? <TestSendOutcome result={result.data} /> : null}
    </form>
  );
}

function TestSendOutcome({ result: r }: { result: TestSendResult }) {
  const t = useTranslations("deliveries.testSend");
  if (r.outcome === "not-configured") return <Alert tone="warning">{t("notConfigured", { endpoint: t(`endpoints.${r.endpoint}`) })}</Alert>;
  return (
    <Alert tone={r.outcome === "answered" ? "success" : "error"}>
      <span data-testid="test-send-outcome" data-outcome={r.outcome}>
        {r.outcome === "answered"
          ? t("answered", { status: r.status ?? 0, ms: r.latencyMs })
          : r.outcome === "refused"
            ? t("refused", { status: r.status ?? 0, ms: r.latencyMs })
            : t("noAnswer", { seconds: Math.round(r.timeoutMs / 1000) })}{" "}
        {r.inTime ? t("inTime", { seconds: Math.round(r.timeoutMs / 1000) }) : null}
      </span>
      <span className="block break-all font-mono text-xs">{r.url}</span>
      {r.error && r.outcome === "no-answer" ? <span className="block break-words font-mono text-xs">{r.error}</span> : null}
    </Alert>
  );
}
