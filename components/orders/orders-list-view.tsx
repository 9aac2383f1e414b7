"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { OrdersFilterForm } from "@/components/orders/orders-filter-form";
import { OrdersTable } from "@/components/orders/orders-table";
import { Alert } from "@/components/ui/alert";
import { SaveViewButton } from "@/components/views/save-view-button";
import { ViewControls } from "@/components/views/view-controls";
import { assertNever } from "@/lib/orders/machine";
import type { OrderTotal } from "@/lib/orders/queries/search-orders";
import type { OrdersListModel } from "@/lib/read/orders-list";
import { readModel } from "@/lib/read/wire";
import { ordersQuery } from "@/lib/views/view-filters";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

/**
 * The orders list: the URL's query string is the list (to bookmark, paste into a ticket, come back
 * to), read as one read model (lib/read/orders-list.ts) from /api/console/orders and laid out here.
 */
export function OrdersListView() {
  const query = useSearchParams().toString();
  const { data, error } = useQuery({
    queryKey: ["orders-list", query],
    queryFn: ({ signal }) => readModel<OrdersListModel>(`/api/console/orders?${new URLSearchParams({ query })}`, signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, `/orders${query ? `?${query}` : ""}`, "orders:view");
  if (!data) return <OrdersListLoading />;
  // Keyed by the URL: the form's fields start from what this URL asked (a pager link or "clear" changes it).
  return <OrdersListBody key={query} model={data} />;
}

function OrdersListBody({ model: m }: { model: OrdersListModel }) {
  const t = useTranslations("orders");
  const views = useTranslations("views");
  const view = m.view?.view ?? null;
  const searching = m.values.q !== "";
  return (
    <div className="space-y-6">
      <div>
        {view ? (
          <>
            <p className="text-sm text-slate-500">{t("title")}</p>
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="text-2xl font-semibold" data-testid="view-name">
                {view.name}
              </h1>
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                {view.shared ? views("sharedBadge", { tenant: view.tenantId ?? "" }) : views("personalBadge")}
              </span>
              {m.view?.editable ? <ViewControls id={view.id} name={view.name} /> : null}
            </div>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-semibold">{t("title")}</h1>
            <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
          </>
        )}
      </div>

      <OrdersFilterForm values={m.values} errors={m.errors} tenants={m.tenants} />
      {m.unknownZone !== null ? <Alert>{t("errors.timeZone", { zone: m.unknownZone })}</Alert> : null}

      <section aria-labelledby="orders-results-heading" className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="orders-results-heading" className="mr-auto text-sm font-medium text-slate-700" aria-live="polite" data-testid="orders-total">
            <TotalText total={m.result.total} searching={searching} />
          </h2>
          {m.tenants.length > 0 ? (
            <SaveViewButton filters={m.filters} canShare={m.canShare} productName={m.tenants.find((x) => x.id === m.filters.tenant)?.name ?? null} />
          ) : null}
          {m.tenants.length > 0 && m.canExport ? (
            <a href={`/api/console/orders/export?${ordersQuery(m.filters)}`} download className={LINK} data-testid="orders-export">
              {views("export")}
            </a>
          ) : null}
        </div>
        {m.tenants.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noScope")}</p>
        ) : m.result.rows.length === 0 ? (
          // The heading above already says that nothing matches: the box says only what to do next.
          <div className="rounded border border-dashed border-slate-300 p-6 text-slate-600" data-testid="orders-empty">
            <p className="text-sm">{m.firstPage ? (searching ? t("empty.searchHint") : t("empty.filterHint")) : t("empty.page")}</p>
          </div>
        ) : (
          <OrdersTable rows={m.result.rows} tenants={m.tenants} />
        )}
        <nav aria-label={t("pager.label")} className="flex items-center gap-2">
          {m.pages.newest ? (
            <Link href={m.pages.newest} className={LINK}>
              {t("pager.newest")}
            </Link>
          ) : null}
          {m.pages.newer ? (
            <Link href={m.pages.newer} className={LINK} rel="prev">
              {t("pager.newer")}
            </Link>
          ) : null}
          {m.pages.older ? (
            <Link href={m.pages.older} className={`ml-auto ${LINK}`} rel="next">
              {t("pager.older")}
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

function TotalText({ total, searching }: { total: OrderTotal; searching: boolean }) {
  const t = useTranslations("orders.total");
  switch (total.kind) {
    case "exact":
      return <>{searching ? t("matches", { count: total.value }) : t("exact", { count: total.value })}</>;
    case "estimate":
      return <>{t("estimate", { count: total.value })}</>;
    case "more-than":
      return <>{t("moreThan", { count: total.value })}</>;
    default:
      return assertNever(total);
  }
}

/** While the list loads (also while an order page under /orders/… loads): a title and rows. */
export function OrdersListLoading() {
  const t = useTranslations("orders");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-36" />
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="flex gap-4 border-b p-3 last:border-0">
            <div className="h-4 w-40 animate-pulse rounded bg-slate-200" />
            <div className="h-4 w-24 animate-pulse rounded bg-slate-100" />
            <div className="h-4 w-28 animate-pulse rounded bg-slate-100" />
            <div className="ml-auto h-4 w-16 animate-pulse rounded bg-slate-100" />
            <div className="h-4 w-20 animate-pulse rounded bg-slate-200" />
          </div>
        ))}
      </div>
    </PageLoading>
  );
}
