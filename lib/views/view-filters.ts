// What a saved view of the orders list remembers, and the orders list's URL for a set of filters.
// Pure.
//
// A view is the orders page's own query string given a name: the same fields (search term, product,
// state, created days, their time zone, stuck), so opening a view is following a link to the list,
// and a view's link can be pasted into a ticket like any other. Saved filters are checked strictly
// (a view that cannot be opened as saved is refused, with the field that is wrong); stored ones are
// read leniently (a field this version no longer understands is dropped, never the whole view).
import { z } from "zod";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import { knownTimeZone } from "@/lib/orders/search-params";
import { because } from "@/lib/validation";

export interface ViewFilters {
  readonly q?: string;
  readonly state?: OrderState;
  /** Calendar days, YYYY-MM-DD, both inclusive, in `tz`. */
  readonly from?: string;
  readonly to?: string;
  /** The zone the days are meant in; only kept with a day. */
  readonly tz?: string;
  readonly stuck?: true;
}

/** The product filter travels beside the others: a view keeps it as its tenant. */
export interface OrdersListFilters extends ViewFilters {
  readonly tenant?: string;
}

export const VIEW_NAME_MAX = 60;

/** An empty form field ("any state") is no filter. */
const blank = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  // 2026-13-45 has the shape of a day but is none.
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

const day = z.preprocess(blank, z.string().refine(isCalendarDay, because({ kind: "invalid-date" })).optional());

/** A checkbox posts "1" (or "on"); JSON callers may send true. Unchecked is absent. */
const checked = z.preprocess(
  (v) => (v === true || v === "1" || v === "on" || v === "true" ? true : v === false || v === "0" || v === "false" ? undefined : blank(v)),
  z.literal(true).optional(),
);

/** The filters of a view being saved, as the orders page's form names them. */
export const viewFilterFields = {
  q: z.preprocess(blank, z.string().trim().max(200).optional()),
  tenant: z.preprocess(blank, z.string().max(64).optional()),
  state: z.preprocess(blank, z.enum(ORDER_STATES).optional()),
  from: day,
  to: day,
  tz: z.preprocess(blank, z.string().max(64).refine((zone) => knownTimeZone(zone) !== null, because({ kind: "invalid" })).optional()),
  stuck: checked,
};

/** A reversed range is refused where it is typed: the view would show nothing, forever. */
export function checkRange(value: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (value.from && value.to && value.from > value.to) ctx.addIssue({ code: "custom", path: ["to"], ...because({ kind: "date-range-reversed" }) });
}

/** The filters of a view, as stored: only what is set, the zone only beside a day. */
export function viewFiltersOf(values: Omit<OrdersListFilters, "stuck"> & { readonly stuck?: boolean | undefined }): ViewFilters {
  const hasDay = Boolean(values.from || values.to);
  const zone = hasDay && values.tz ? knownTimeZone(values.tz) : null;
  return {
    ...(values.q ? { q: values.q } : {}),
    ...(values.state ? { state: values.state } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    ...(zone && zone !== "UTC" ? { tz: zone } : {}),
    ...(values.stuck ? { stuck: true as const } : {}),
  };
}

/** Stored filters, read field by field: what is no longer valid is dropped, the rest kept. */
export function readViewFilters(stored: unknown): ViewFilters {
  const record = typeof stored === "object" && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const field = <T>(schema: z.ZodType<T>, value: unknown): T | undefined => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
  return viewFiltersOf({
    q: field(viewFilterFields.q, record.q),
    state: field(viewFilterFields.state, record.state),
    from: field(viewFilterFields.from, record.from),
    to: field(viewFilterFields.to, record.to),
    tz: field(viewFilterFields.tz, record.tz),
    stuck: field(viewFilterFields.stuck, record.stuck),
  });
}

/** The query string of the orders list for these filters (no leading "?"; "" for none). */
export function ordersQuery(filters: OrdersListFilters, extra: Readonly<Record<string, string>> = {}): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.tenant) params.set("tenant", filters.tenant);
  if (filters.state) params.set("state", filters.state);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if ((filters.from || filters.to) && filters.tz && filters.tz !== "UTC") params.set("tz", filters.tz);
  if (filters.stuck) params.set("stuck", "1");
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

/** The orders list with these filters: a link anyone in scope can open. */
export function ordersHref(filters: OrdersListFilters, extra: Readonly<Record<string, string>> = {}): string {
  const query = ordersQuery(filters, extra);
  return query ? `/orders?${query}` : "/orders";
}

/** A saved view's link: its filters, and its id so the page can name it and the navigation mark it. */
export function viewHref(view: { readonly id: number; readonly tenantId: string | null; readonly filters: ViewFilters }): string {
  return ordersHref({ ...view.filters, ...(view.tenantId ? { tenant: view.tenantId } : {}) }, { view: String(view.id) });
}
