import "server-only";
import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import {
  decodeCursor,
  encodeCursor,
  scopeTenants,
  searchOrders,
  type OrderCursor,
  type OrderSearchResult,
  type TenantOption,
} from "@/lib/orders/queries/search-orders";
import { parseOrderSearch, type OrderSearchField } from "@/lib/orders/search-params";
import { viewAccess } from "@/lib/views/access";
import { findView, type SavedView } from "@/lib/views/saved-views";
import { ordersHref, type OrdersListFilters } from "@/lib/views/view-filters";

/** The filter form as the page fills it: what the URL asked for that the page understood. */
export interface OrdersFormValues {
  readonly q: string;
  readonly tenant: string;
  readonly state: string;
  readonly from: string;
  readonly to: string;
  readonly tz: string;
  readonly stuck: boolean;
}

/** Why a filter of the URL was dropped; the page words it (messages: orders.errors). */
export type OrdersFilterProblem = "q" | "state" | "date" | "range" | "control" | "tenant";
export type OrdersFormErrors = Readonly<Partial<Record<Exclude<OrderSearchField, "tz" | "stuck">, OrdersFilterProblem>>>;

/** The orders list for one viewer and one URL (lib/read: the page only lays it out). */
export interface OrdersListModel {
  readonly values: OrdersFormValues;
  readonly errors: OrdersFormErrors;
  /** A time zone asked for that is none: the days were read in UTC. */
  readonly unknownZone: string | null;
  /** The products in the viewer's scope. */
  readonly tenants: readonly TenantOption[];
  /** The saved view named by `?view=`, when the viewer may see it. */
  readonly view: { readonly view: SavedView; readonly editable: boolean } | null;
  readonly result: OrderSearchResult;
  readonly firstPage: boolean;
  /** Only filters the page understood travel on, into a view, an export or a page link. */
  readonly filters: OrdersListFilters;
  readonly pages: { readonly newest: string | null; readonly newer: string | null; readonly older: string | null };
  readonly canShare: boolean;
  readonly canExport: boolean;
}

type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The orders list of `params` (the page's own query string): each bad filter is dropped and said,
 * never a failed page; a product outside the scope reads like one that does not exist.
 */
export async function readOrdersList(staff: Staff, params: SearchParams): Promise<OrdersListModel> {
  const { values: parsed, invalid, unknownZone } = parseOrderSearch(params);
  const after = decodeCursor(first(params.after));
  const before = after ? undefined : decodeCursor(first(params.before));
  const [tenants, shown] = await Promise.all([scopeTenants(staff.tenantIds), shownView(first(params.view), staff)]);

  const errors: Partial<Record<keyof OrdersFormErrors, OrdersFilterProblem>> = {};
  if (invalid.q) errors.q = "q";
  if (invalid.state) errors.state = "state";
  if (invalid.from) errors.from = "date";
  if (invalid.to) errors.to = "date";
  // A NUL is no text anyone types: whatever the field, it is ignored with the same words.
  for (const field of ["q", "tenant", "state", "from", "to"] as const) {
    if (invalid[field]?.kind === "control-characters") errors[field] = "control";
  }
  if (parsed.from && parsed.to && parsed.from > parsed.to) errors.to = "range";
  const unknownTenant = parsed.tenant !== undefined && !tenants.some((tenant) => tenant.id === parsed.tenant);
  if (unknownTenant) errors.tenant = "tenant";

  const values: OrdersFormValues = {
    q: parsed.q ?? "",
    tenant: parsed.tenant ?? "",
    state: parsed.state ?? "",
    from: invalid.from ? "" : (parsed.from ?? ""),
    to: invalid.to ? "" : (parsed.to ?? ""),
    tz: parsed.tz,
    stuck: parsed.stuck === "1",
  };
  const result = await searchOrders({
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
  });
  const filters = listFilters(unknownTenant ? { ...values, tenant: "" } : values);
  const view = shown?.view ?? null;
  const firstPage = !after && !before;
  return {
    values,
    errors,
    unknownZone,
    tenants,
    view: shown,
    result,
    firstPage,
    filters,
    pages: {
      newest: firstPage ? null : pageHref(filters, view),
      newer: result.newer ? pageHref(filters, view, { before: result.newer }) : null,
      older: result.older ? pageHref(filters, view, { after: result.older }) : null,
    },
    canShare: can(staff.role, "views:share"),
    canExport: can(staff.role, "orders:export"),
  };
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
function pageHref(filters: OrdersListFilters, view: SavedView | null, page?: { after: OrderCursor } | { before: OrderCursor }): string {
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
