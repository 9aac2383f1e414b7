"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { ActorSummaryTable } from "@/components/audit/actor-summary-table";
import { AuditFilterForm } from "@/components/audit/audit-filter-form";
import { AuditTable } from "@/components/audit/audit-table";
import { ChainStatusLine } from "@/components/audit/chain-status";
import { InvalidFilters } from "@/components/audit/invalid-filters";
import { auditPositions, PageLinks } from "@/components/audit/page-links";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { Alert } from "@/components/ui/alert";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import type { ActorSummary } from "@/lib/audit/queries/actor-summary";
import type { AuditModel } from "@/lib/read/audit";
import { readModel } from "@/lib/read/wire";

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100";

/** The explorer at its filters plus `extra` (another actor, a page position): the address to follow or bookmark. */
function auditHref(params: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams({ ...params, ...extra }).toString();
  return query ? `/audit?${query}` : "/audit";
}

/**
 * The audit explorer: the URL's query string is the filter (to bookmark, paste into a ticket), read
 * as one read model (lib/read/audit.ts) from /api/console/audit and laid out here.
 */
export function AuditView() {
  const query = useSearchParams().toString();
  const { data, error } = useQuery({
    queryKey: ["audit", query],
    queryFn: ({ signal }) => readModel<AuditModel>(`/api/console/audit?${new URLSearchParams({ query })}`, signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, `/audit${query ? `?${query}` : ""}`, "audit:view");
  if (!data) return <AuditLoading />;
  // Keyed by the URL: the form's fields start from what this URL asked (a pager link or "clear" changes it).
  return <AuditBody key={query} model={data} />;
}

function AuditBody({ model: m }: { model: AuditModel }) {
  const t = useTranslations("audit");
  const actorHref = (actor: string) => auditHref(m.linkParams, { actor });
  const actors = [...new Set(m.page.rows.map((r) => r.actor))].sort();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
          <ChainStatusLine status={m.chain} />
        </div>
        {m.exportHref ? (
          <a href={m.exportHref} className={`ml-auto ${LINK}`} data-testid="audit-export" download>
            {t("export")}
          </a>
        ) : null}
      </div>

      <InvalidFilters title={t("invalidFilters")} invalid={m.invalid} />

      <AuditFilterForm filters={m.filters} raw={m.raw} tenants={m.tenants} actors={actors} />

      <section aria-labelledby="audit-rows-heading" className="space-y-3">
        <h2 id="audit-rows-heading" className="sr-only">
          {t("rowsHeading")}
        </h2>
        {m.tenants.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noScope")}</p>
        ) : m.page.timedOut ? (
          <Alert tone="error">{t("searchTooSlow")}</Alert>
        ) : m.page.rows.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{m.firstPage ? t("empty") : t("emptyPage")}</p>
        ) : (
          <AuditTable rows={m.page.rows} actorHref={actorHref} />
        )}
        <PageLinks positions={auditPositions(m.page)} isFirstPage={m.firstPage} href={(extra) => auditHref(m.linkParams, extra)} />
      </section>

      {m.tenants.length > 0 ? (
        <section aria-labelledby="audit-summary-heading" className="space-y-2">
          <h2 id="audit-summary-heading" className="text-lg font-semibold">
            {t("summary.title")}
          </h2>
          <AuditSummary filters={m.linkParams} fromFiltered={m.filters.from !== undefined} actorHref={actorHref} />
        </section>
      ) : null}
    </div>
  );
}

/**
 * Who did how much over the filtered range: its own read (/api/console/audit/summary), as it counts
 * up to a month of facts; the rows above never wait for it. Keyed by the filters alone: turning a
 * page of rows counts nothing again.
 */
function AuditSummary({ filters, fromFiltered, actorHref }: { filters: Readonly<Record<string, string>>; fromFiltered: boolean; actorHref: (actor: string) => string }) {
  const t = useTranslations("audit.summary");
  const query = new URLSearchParams(filters).toString();
  const { data, error } = useQuery({
    queryKey: ["audit-summary", query],
    queryFn: ({ signal }) => readModel<ActorSummary>(`/api/console/audit/summary?${new URLSearchParams({ query })}`, signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, `/audit${query ? `?${query}` : ""}`, "audit:view");
  if (!data) {
    return (
      <p role="status" className="text-sm text-slate-500">
        {t("loading")}
      </p>
    );
  }
  return <ActorSummaryTable summary={data} fromFiltered={fromFiltered} actorHref={actorHref} />;
}

/** While the explorer loads: its title, the filters' box and rows. */
export function AuditLoading() {
  const t = useTranslations("audit");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-40" />
      <Placeholder className="h-64" />
    </PageLoading>
  );
}
