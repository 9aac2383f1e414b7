"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { AppleStoreForm } from "@/components/settings/apple-store-form";
import { CannedReasonsForm } from "@/components/settings/canned-reasons-form";
import { CaseSlaForm } from "@/components/settings/case-sla-form";
import { DwellForm } from "@/components/settings/dwell-form";
import { GooglePlayForm } from "@/components/settings/google-play-form";
import { RefundApprovalForm } from "@/components/settings/refund-approval-form";
import { RefundReviewsForm } from "@/components/settings/refund-reviews-form";
import { RefundWatchForm } from "@/components/settings/refund-watch-form";
import { TakeBackRulesForm } from "@/components/settings/take-back-rules-form";
import { UnpaidTimeoutForm } from "@/components/settings/unpaid-timeout-form";
import { WebhookForm } from "@/components/settings/webhook-form";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { useScrollToHash } from "@/components/ui/scroll-to-hash";
import { formatUtcMinute } from "@/lib/format";
import type { SettingsModel } from "@/lib/read/settings";
import { readModel } from "@/lib/read/wire";

/**
 * Per-product settings, read as one read model (lib/read/settings.ts) from /api/console/settings:
 * every product of the viewer's, or the one named by `?tenant=`.
 *
 * The data is read when the page opens, after a save and on "show current values" — never in the
 * background. Each form sends back the row's version it holds: a refetch on its own (a window's
 * focus) would hand the forms someone else's newer version under the values they still show, and
 * the next save would overwrite that change instead of being refused as stale.
 */
export function SettingsView() {
  const tenant = useSearchParams().get("tenant");
  const search = tenant ? `?${new URLSearchParams({ tenant })}` : "";
  const { data, error } = useQuery({
    queryKey: ["settings", tenant ?? ""],
    queryFn: ({ signal }) => readModel<SettingsModel>(`/api/console/settings${search}`, signal),
    retry: retryRead,
    staleTime: Infinity,
    // Dropped when the page is left: coming back reads the current values, not the ones seen last.
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const client = useQueryClient();
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: ["settings"] }), [client]);
  // A link to one product's section (#webhook-<tenant>, from a case).
  useScrollToHash(data !== undefined);
  if (error) showReadRefusal(error, `/settings${search}`, "settings:edit");
  if (!data) return <SettingsLoading />;
  return (
    <RefreshViewProvider refresh={refresh}>
      <SettingsBody model={data} />
    </RefreshViewProvider>
  );
}

function SettingsBody({ model: m }: { model: SettingsModel }) {
  const t = useTranslations("settings");
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </div>
      {m.tenants.length === 0 ? <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("empty")}</p> : null}
      {m.tenants.map((s) => (
        <section key={s.tenantId} aria-labelledby={`settings-${s.tenantId}`} className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-slate-100 px-6 py-4">
            <h2 id={`settings-${s.tenantId}`} className="text-lg font-semibold">
              {s.tenantName}
            </h2>
            <span className="font-mono text-xs text-slate-500">{s.tenantId}</span>
            <span className="text-xs text-slate-500">{s.currency}</span>
            <span className="ml-auto text-xs text-slate-500">
              {/* The person, as the stale-form refusal names them: the "staff:" kind is no word to read. */}
              {s.lastChange ? t("lastChange", { actor: s.lastChange.actor.replace(/^staff:/, ""), at: formatUtcMinute(s.lastChange.at) }) : t("neverChanged")}
            </span>
          </header>
          <div className="grid gap-8 p-6 lg:grid-cols-5">
            <div className="lg:col-span-3">
              <h3 className="font-medium">{t("dwell.title")}</h3>
              <p className="mb-4 text-sm text-slate-600">{t("dwell.description")}</p>
              <DwellForm tenant={s.tenantId} updatedAt={s.updatedAt} maxDwellSeconds={s.maxDwellSeconds} />
            </div>
            <div className="space-y-8 lg:col-span-2">
              <div>
                <h3 className="font-medium">{t("unpaid.title")}</h3>
                <p className="mb-4 text-sm text-slate-600">{t("unpaid.description")}</p>
                <UnpaidTimeoutForm tenant={s.tenantId} updatedAt={s.updatedAt} seconds={s.unpaidTimeoutSeconds} />
              </div>
              <div>
                <h3 className="font-medium">{t("refund.title")}</h3>
                <p className="mb-4 text-sm text-slate-600">{t("refund.description")}</p>
                <RefundApprovalForm tenant={s.tenantId} updatedAt={s.updatedAt} amount={s.refundApprovalAmount} currency={s.currency} />
              </div>
            </div>
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("cannedReasons.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("cannedReasons.description")}</p>
            <CannedReasonsForm tenant={s.tenantId} updatedAt={s.updatedAt} reasons={s.cannedReasons} />
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("caseSla.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("caseSla.description")}</p>
            <CaseSlaForm tenant={s.tenantId} updatedAt={s.updatedAt} slaSeconds={s.caseSlaSeconds} />
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("takeBack.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("takeBack.description")}</p>
            <TakeBackRulesForm tenant={s.tenantId} updatedAt={s.updatedAt} rules={s.takeBackRules} revokeEndpointUrl={s.revokeEndpointUrl} />
          </div>
          {/* Linked to from a case whose refund could not be sent for want of a webhook (#webhook-<tenant>). */}
          <div id={`webhook-${s.tenantId}`} className="scroll-mt-4 border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("webhook.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t.rich("webhook.description", { topic: (chunks) => <code className="font-mono">{chunks}</code> })}</p>
            <WebhookForm tenant={s.tenantId} updatedAt={s.updatedAt} webhookUrl={s.webhookUrl} />
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("appleStore.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("appleStore.description", { url: `/api/v1/stores/apple/notifications/${s.tenantId}` })}</p>
            <AppleStoreForm tenant={s.tenantId} updatedAt={s.updatedAt} bundleId={s.appleBundleId} environment={s.appleEnvironment} />
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("refundReviews.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("refundReviews.description")}</p>
            <RefundReviewsForm tenant={s.tenantId} updatedAt={s.updatedAt} autoSend={s.refundReviewAutoSend} />
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("refundWatch.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("refundWatch.description")}</p>
            <RefundWatchForm tenant={s.tenantId} updatedAt={s.updatedAt} percent={s.refundWatchPercent} />
          </div>
          <div className="border-t border-slate-100 p-6">
            <h3 className="font-medium">{t("googlePlay.title")}</h3>
            <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("googlePlay.description", { url: `/api/v1/stores/google/notifications/${s.tenantId}` })}</p>
            <GooglePlayForm
              tenant={s.tenantId}
              updatedAt={s.updatedAt}
              values={{ packageName: s.googlePackageName, pushAudience: s.googlePushAudience, pushServiceAccount: s.googlePushServiceAccount }}
            />
          </div>
        </section>
      ))}
    </div>
  );
}

/** While the settings load: the title and a product's box. */
export function SettingsLoading() {
  const t = useTranslations("settings");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-64" />
    </PageLoading>
  );
}
