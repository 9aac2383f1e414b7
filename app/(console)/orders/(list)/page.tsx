import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { OrdersFilterForm, type OrdersFormErrors, type OrdersFormValues } from "@/components/orders/orders-filter-form";
import { OrdersTable } from "@/components/orders/orders-table";
import { Alert } from "@/components/ui/alert";
import { SaveViewButton } from "@/components/views/save-view-button";
import { ViewControls } from "@/components/views/view-controls";
import { requireStaff } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { assertNever } from "@/lib/orders/machine";
import {
  decodeCursor,
  encodeCursor,
  scopeTenants,
  searchOrders,
  type OrderCursor,
  type OrderSearch,
  type OrderTotal,
} from "@/lib/orders/queries/search-orders";
import { parseOrderSearch } from "@/lib/orders/search-params";
import { viewAccess } from "@/lib/views/access";
import { findView, type SavedView } from "@/lib/views/saved-views";
import { ordersHref, ordersQuery, type OrdersListFilters } from "@/lib/views/view-filters";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("orders");
  return { title: t("title") };
}

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { searchParams: Promise<SearchParams> };

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parse(params: SearchParams) {
  const { values, invalid, unknownZone } = parseOrderSearch(params);
  const after = decodeCursor(first(params.after));
  const before = after ? undefined : decodeCursor(first(params.before));
  return { values, invalid, unknownZone, after, before };
}

/** The filters on screen, as the view and export links name them. */
function listFilters(values: OrdersFormValues): OrdersListFilters {
  return {
    ...(values.q ? { q: values.q } : {}),
    ...(values.tenant ? { tenant: values.tenant } : {}),
    ...(values.state ? { state: values.state as OrdersListFilters["state"] } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    tz: values.tz,
    ...(values.stuck ? { stuck: true as const } : {}),
  };
}

/** The current filters (and view) as a link, with a page cursor or none. */
function query(filters: OrdersListFilters, view: SavedView | null, page?: { after: OrderCursor } | { before: OrderCursor }): string {
  const extra: Record<string, string> = {};
  if (view) extra.view = String(view.id);
  if (page && "after" in page) extra.after = encodeCursor(page.after);
  if (page && "before" in page) extra.before = encodeCursor(page.before);
  return ordersHref(filters, extra);
}

/** The view named by `?view=`, when the caller may see it; anything else is no view (the filters still apply). */
async function shownView(raw: string | undefined, staff: Staff): Promise<{ view: SavedView; editable: boolean } | null> {
  const id = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  const view = id ? await findView(id) : null;
  const access = view ? viewAccess(view, staff) : null;
  return view && (access === "edit" || access === "see") ? { view, editable: access === "edit" } : null;
}

export default async function OrdersPage({ searchParams }: Props) {
  const staff = await requireStaff("orders:view");
  const t = await getTranslations("orders");
  const params = await searchParams;
  const { values: parsed, invalid, unknownZone, after, before } = parse(params);
  const [tenants, shown] = await Promise.all([scopeTenants(staff.tenantIds), shownView(first(params.view), staff)]);

  const errors: OrdersFormErrors = {};
  if (invalid.q) errors.q = t("errors.q");
  if (invalid.state) errors.state = t("errors.state");
  if (invalid.from) errors.from = t("errors.date");
  if (invalid.to) errors.to = t("errors.date");
  // A NUL is no text anyone types: whatever the field, it is ignored with the same words.
  for (const field of ["q", "tenant", "state", "from", "to"] as const) {
    if (invalid[field]?.kind === "control-characters") errors[field] = t("errors.control");
  }
  if (parsed.from && parsed.to && parsed.from > parsed.to) errors.to = t("errors.range");
  // Outside the scope answers like a product that does not exist.
  const unknownTenant = parsed.tenant !== undefined && !tenants.some((tenant) => tenant.id === parsed.tenant);
  if (unknownTenant) errors.tenant = t("errors.tenant", { tenant: parsed.tenant! });

  const values: OrdersFormValues = {
    q: parsed.q ?? "",
    tenant: parsed.tenant ?? "",
    state: parsed.state ?? "",
    from: invalid.from ? "" : (parsed.from ?? ""),
    to: invalid.to ? "" : (parsed.to ?? ""),
    tz: parsed.tz,
    stuck: parsed.stuck === "1",
  };
  const search: OrderSearch = {
    scope: staff.tenantIds,
    q: parsed.q,
    tenantId: parsed.tenant,
    state: parsed.state,
    createdFrom: values.from || undefined,
    createdTo: values.to || undefined,
    timeZone: values.tz,
    stuck: values.stuck,
    after,
    before,
  };
  const result = await searchOrders(search);
  const firstPage = !after && !before;
  const searching = values.q !== "";
  // Only filters the page understood travel on into a view or an export.
  const filters = unknownTenant ? listFilters({ ...values, tenant: "" }) : listFilters(values);
  const view = shown?.view ?? null;
  const views = await getTranslations("views");

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
              {shown?.editable ? <ViewControls id={view.id} name={view.name} /> : null}
            </div>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-semibold">{t("title")}</h1>
            <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
          </>
        )}
      </div>

      <OrdersFilterForm values={values} errors={errors} tenants={tenants} />
      {unknownZone !== null ? <Alert>{t("errors.timeZone", { zone: unknownZone })}</Alert> : null}

      <section aria-labelledby="orders-results-heading" className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="orders-results-heading" className="mr-auto text-sm font-medium text-slate-700" aria-live="polite" data-testid="orders-total">
            <TotalText total={result.total} searching={searching} />
          </h2>
          {tenants.length > 0 ? (
            <SaveViewButton filters={filters} canShare={can(staff.role, "views:share")} productName={tenants.find((x) => x.id === filters.tenant)?.name ?? null} />
          ) : null}
          {tenants.length > 0 && can(staff.role, "orders:export") ? (
            <a href={`/api/console/orders/export?${ordersQuery(filters)}`} download className={LINK} data-testid="orders-export">
              {views("export")}
            </a>
          ) : null}
        </div>
        {tenants.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noScope")}</p>
        ) : result.rows.length === 0 ? (
          // The heading above already says that nothing matches: the box says only what to do next.
          <div className="rounded border border-dashed border-slate-300 p-6 text-slate-600" data-testid="orders-empty">
            <p className="text-sm">{firstPage ? (searching ? t("empty.searchHint") : t("empty.filterHint")) : t("empty.page")}</p>
          </div>
        ) : (
          <OrdersTable rows={result.rows} tenants={tenants} />
        )}
        <nav aria-label={t("pager.label")} className="flex items-center gap-2">
          {!firstPage ? (
            <Link href={query(filters, view)} className={LINK}>
              {t("pager.newest")}
            </Link>
          ) : null}
          {result.newer ? (
            <Link href={query(filters, view, { before: result.newer })} className={LINK} rel="prev">
              {t("pager.newer")}
            </Link>
          ) : null}
          {result.older ? (
            <Link href={query(filters, view, { after: result.older })} className={`ml-auto ${LINK}`} rel="next">
              {t("pager.older")}
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

async function TotalText({ total, searching }: { total: OrderTotal; searching: boolean }) {
  const t = await getTranslations("orders.total");
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
