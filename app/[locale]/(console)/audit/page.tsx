import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { ActorSummaryTable } from "@/components/audit/actor-summary-table";
import { AuditFilterForm } from "@/components/audit/audit-filter-form";
import { AuditTable } from "@/components/audit/audit-table";
import { ChainStatusLine } from "@/components/audit/chain-status";
import { PageLinks } from "@/components/audit/page-links";
import { InvalidFilters } from "@/components/audit/invalid-filters";
import { Alert } from "@/components/ui/alert";
import { listAuditRows } from "@/lib/audit/queries/audit-rows";
import { filterQuery, PAGE_SIZE, parseAuditSearch } from "@/lib/audit/queries/filters";
import { tenantChoices } from "@/lib/audit/queries/tenant-choices";
import { requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100";

export default async function AuditPage({ searchParams }: Props) {
  const staff = await requireStaff("audit:view");
  const t = await getTranslations("audit");
  const parsed = parseAuditSearch(await searchParams);
  const { filters, raw } = parsed;
  const [page, tenants] = await Promise.all([
    listAuditRows({ scope: staff.tenantIds, filters, position: parsed.position, limit: PAGE_SIZE }),
    tenantChoices(staff.tenantIds),
  ]);
  const now = new Date();
  const actorHref = (actor: string) => `/audit${filterQuery(raw, { actor })}`;
  const actors = [...new Set(page.rows.map((r) => r.actor))].sort();
  const isFirstPage = !("after" in parsed.position) && !("before" in parsed.position);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
          <Suspense fallback={null}>
            <ChainStatusLine />
          </Suspense>
        </div>
        {can(staff.role, "audit:export") && tenants.length > 0 ? (
          <a href={`/api/console/audit/export${filterQuery(raw)}`} className={`ml-auto ${LINK}`} data-testid="audit-export" download>
            {t("export")}
          </a>
        ) : null}
      </div>

      <InvalidFilters title={t("invalidFilters")} invalid={parsed.invalid} />

      <AuditFilterForm filters={filters} raw={raw} tenants={tenants} actors={actors} />

      <section aria-labelledby="audit-rows-heading" className="space-y-3">
        <h2 id="audit-rows-heading" className="sr-only">
          {t("rowsHeading")}
        </h2>
        {tenants.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noScope")}</p>
        ) : page.timedOut ? (
          <Alert tone="error">{t("searchTooSlow")}</Alert>
        ) : page.rows.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{isFirstPage ? t("empty") : t("emptyPage")}</p>
        ) : (
          <AuditTable rows={page.rows} actorHref={actorHref} />
        )}
        <PageLinks page={page} isFirstPage={isFirstPage} href={(extra) => `/audit${filterQuery(raw, extra)}`} />
      </section>

      {tenants.length > 0 ? (
        <section aria-labelledby="audit-summary-heading" className="space-y-2">
          <h2 id="audit-summary-heading" className="text-lg font-semibold">
            {t("summary.title")}
          </h2>
          <Suspense fallback={<p className="animate-pulse text-sm text-slate-500">{t("summary.loading")}</p>}>
            <ActorSummaryTable scope={staff.tenantIds} filters={filters} now={now} actorHref={actorHref} />
          </Suspense>
        </section>
      ) : null}
    </div>
  );
}
