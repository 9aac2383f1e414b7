import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AuditTable } from "@/components/audit/audit-table";
import { PageLinks } from "@/components/audit/page-links";
import { SecurityFilterForm } from "@/components/security/security-filter-form";
import { InvalidFilters } from "@/components/audit/invalid-filters";
import { Alert } from "@/components/ui/alert";
import { PAGE_SIZE } from "@/lib/audit/queries/filters";
import { parseSecuritySearch, securityQuery } from "@/lib/audit/queries/security-filters";
import { listSecurityRows } from "@/lib/audit/queries/security-rows";
import { requireStaff } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("security");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The admins' security log: sign-ins, lockouts, refusals, staff and API-key changes — the facts
 * without a product, which the managers' audit explorer leaves out, and those of the admin's own
 * products (security-rows.ts).
 */
export default async function SecurityLogPage({ searchParams }: Props) {
  const staff = await requireStaff("users:manage");
  const t = await getTranslations("security");
  const parsed = parseSecuritySearch(await searchParams);
  const { filters, raw } = parsed;
  const page = await listSecurityRows({ scope: staff.tenantIds, filters, position: parsed.position, limit: PAGE_SIZE });
  const isFirstPage = !("after" in parsed.position) && !("before" in parsed.position);
  const who = (actor: string) => `/admin/security${securityQuery(raw, { who: actor })}`;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </div>

      <InvalidFilters title={t("invalidFilters")} invalid={parsed.invalid} />

      <SecurityFilterForm filters={filters} raw={raw} />

      <section aria-labelledby="security-rows-heading" className="space-y-3">
        <h2 id="security-rows-heading" className="sr-only">
          {t("rowsHeading")}
        </h2>
        {page.timedOut ? (
          <Alert tone="error">{t("searchTooSlow")}</Alert>
        ) : page.rows.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{isFirstPage ? t("empty") : t("emptyPage")}</p>
        ) : (
          <AuditTable rows={page.rows} actorHref={who} showIp />
        )}
        <PageLinks page={page} isFirstPage={isFirstPage} href={(extra) => `/admin/security${securityQuery(raw, extra)}`} />
      </section>
    </div>
  );
}
