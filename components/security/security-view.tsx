"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { adminKeys } from "@/components/admin/query-keys";
import { AuditTable } from "@/components/audit/audit-table";
import { InvalidFilters } from "@/components/audit/invalid-filters";
import { auditPositions, PageLinks } from "@/components/audit/page-links";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { Alert } from "@/components/ui/alert";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import type { SecurityModel } from "@/lib/read/security";
import { readModel } from "@/lib/read/wire";
import { SecurityFilterForm } from "./security-filter-form";

/**
 * The admins' security log: sign-ins, lockouts, refusals, staff and API-key changes — the facts
 * without a product, which the managers' audit explorer leaves out, and those of the admin's own
 * products. The URL's query string is the slice shown (to bookmark or paste into an incident), read
 * as one read model (lib/read/security.ts) from /api/console/admin/security.
 */
export function SecurityView() {
  const query = useSearchParams().toString();
  const { data, error } = useQuery({
    queryKey: adminKeys.security(query),
    queryFn: ({ signal }) => readModel<SecurityModel>(`/api/console/admin/security?${new URLSearchParams({ query })}`, signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, `/admin/security${query ? `?${query}` : ""}`, "users:manage");
  if (!data) return <SecurityLoading />;
  // Keyed by the URL: the form's fields start from what this URL asked (a page link or "clear" changes it).
  return <SecurityBody key={query} model={data} />;
}

/** The log's address for the understood filters (`query`, from the model) with `extra` set. */
function securityHref(query: string, extra: Readonly<Record<string, string>> = {}): string {
  const params = new URLSearchParams(query);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const text = params.toString();
  return `/admin/security${text ? `?${text}` : ""}`;
}

function SecurityBody({ model: m }: { model: SecurityModel }) {
  const t = useTranslations("security");
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </div>

      <InvalidFilters title={t("invalidFilters")} invalid={m.invalid} />

      <SecurityFilterForm filters={m.filters} raw={m.raw} />

      <section aria-labelledby="security-rows-heading" className="space-y-3">
        <h2 id="security-rows-heading" className="sr-only">
          {t("rowsHeading")}
        </h2>
        {m.page.timedOut ? (
          <Alert tone="error">{t("searchTooSlow")}</Alert>
        ) : m.page.rows.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{m.isFirstPage ? t("empty") : t("emptyPage")}</p>
        ) : (
          <AuditTable rows={m.page.rows} actorHref={(actor) => securityHref(m.query, { who: actor })} showIp />
        )}
        <PageLinks positions={auditPositions(m.page)} isFirstPage={m.isFirstPage} href={(extra) => securityHref(m.query, extra)} />
      </section>
    </div>
  );
}

/** Until the log's first read: the page's title, the filters' and the rows' places. */
export function SecurityLoading() {
  const t = useTranslations("security");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-36" />
      <Placeholder className="h-96" />
    </PageLoading>
  );
}
