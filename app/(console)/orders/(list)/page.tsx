import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { OrdersFilterForm, type OrdersFormErrors, type OrdersFormValues } from "@/components/orders/orders-filter-form";
import { OrdersTable } from "@/components/orders/orders-table";
import { requireStaff } from "@/lib/auth/page";
import { assertNever, ORDER_STATES } from "@/lib/orders/machine";
import {
  decodeCursor,
  encodeCursor,
  scopeTenants,
  searchOrders,
  type OrderCursor,
  type OrderSearch,
  type OrderTotal,
} from "@/lib/orders/queries/search-orders";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("orders");
  return { title: t("title") };
}

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { searchParams: Promise<SearchParams> };

const LINK = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

// One value per field; an empty form field ("any state") is no filter. A value that does not parse
// is reported beside its field and ignored, so a mistyped link still shows something useful.
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const day = z.preprocess(
  blank,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((v) => new Date(`${v}T00:00:00Z`).toISOString().startsWith(v))
    .optional(),
);
const FIELDS = {
  q: z.preprocess(blank, z.string().trim().max(200).optional()),
  tenant: z.preprocess(blank, z.string().max(64).optional()),
  state: z.preprocess(blank, z.enum(ORDER_STATES).optional()),
  from: day,
  to: day,
  tz: z.preprocess(
    blank,
    z
      .string()
      .max(64)
      .regex(/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/)
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat("en", { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      })
      .optional(),
  ),
  stuck: z.preprocess(blank, z.literal("1").optional()),
} as const;

type Field = keyof typeof FIELDS;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parse(params: SearchParams) {
  const values: { [K in Field]?: z.output<(typeof FIELDS)[K]> } = {};
  const invalid = new Set<Field>();
  for (const field of Object.keys(FIELDS) as Field[]) {
    const result = FIELDS[field].safeParse(first(params[field]));
    if (result.success) (values as Record<Field, unknown>)[field] = result.data;
    else invalid.add(field);
  }
  const after = decodeCursor(first(params.after));
  const before = after ? undefined : decodeCursor(first(params.before));
  return { values, invalid, after, before };
}

/** The current filters as a query string, with a page cursor or none. */
function query(values: OrdersFormValues, page?: { after: OrderCursor } | { before: OrderCursor }): string {
  const params = new URLSearchParams();
  if (values.q) params.set("q", values.q);
  if (values.tenant) params.set("tenant", values.tenant);
  if (values.state) params.set("state", values.state);
  if (values.from) params.set("from", values.from);
  if (values.to) params.set("to", values.to);
  if ((values.from || values.to) && values.tz !== "UTC") params.set("tz", values.tz);
  if (values.stuck) params.set("stuck", "1");
  if (page && "after" in page) params.set("after", encodeCursor(page.after));
  if (page && "before" in page) params.set("before", encodeCursor(page.before));
  const text = params.toString();
  return text ? `/orders?${text}` : "/orders";
}

export default async function OrdersPage({ searchParams }: Props) {
  const staff = await requireStaff("orders:view");
  const t = await getTranslations("orders");
  const { values: parsed, invalid, after, before } = parse(await searchParams);
  const tenants = await scopeTenants(staff.tenantIds);

  const errors: OrdersFormErrors = {};
  if (invalid.has("q")) errors.q = t("errors.q");
  if (invalid.has("state")) errors.state = t("errors.state");
  if (invalid.has("from")) errors.from = t("errors.date");
  if (invalid.has("to")) errors.to = t("errors.date");
  if (parsed.from && parsed.to && parsed.from > parsed.to) errors.to = t("errors.range");
  // Outside the scope answers like a product that does not exist.
  const unknownTenant = parsed.tenant !== undefined && !tenants.some((tenant) => tenant.id === parsed.tenant);
  if (unknownTenant) errors.tenant = t("errors.tenant", { tenant: parsed.tenant! });

  const values: OrdersFormValues = {
    q: parsed.q ?? "",
    tenant: parsed.tenant ?? "",
    state: parsed.state ?? "",
    from: invalid.has("from") ? "" : (parsed.from ?? ""),
    to: invalid.has("to") ? "" : (parsed.to ?? ""),
    tz: parsed.tz ?? "UTC",
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

  return (
    <main className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </div>

      <OrdersFilterForm values={values} errors={errors} tenants={tenants} />

      <section aria-labelledby="orders-results-heading" className="space-y-3">
        <h2 id="orders-results-heading" className="text-sm font-medium text-slate-700" aria-live="polite" data-testid="orders-total">
          <TotalText total={result.total} searching={searching} />
        </h2>
        {tenants.length === 0 ? (
          <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noScope")}</p>
        ) : result.rows.length === 0 ? (
          <div className="rounded border border-dashed border-slate-300 p-6 text-slate-600" data-testid="orders-empty">
            <p className="font-medium">{firstPage ? t("empty.title") : t("empty.page")}</p>
            {firstPage ? <p className="mt-1 text-sm">{searching ? t("empty.searchHint") : t("empty.filterHint")}</p> : null}
          </div>
        ) : (
          <OrdersTable rows={result.rows} tenants={tenants} />
        )}
        <nav aria-label={t("pager.label")} className="flex items-center gap-2">
          {!firstPage ? (
            <Link href={query(values)} className={LINK}>
              {t("pager.newest")}
            </Link>
          ) : null}
          {result.newer ? (
            <Link href={query(values, { before: result.newer })} className={LINK} rel="prev">
              {t("pager.newer")}
            </Link>
          ) : null}
          {result.older ? (
            <Link href={query(values, { after: result.older })} className={`ml-auto ${LINK}`} rel="next">
              {t("pager.older")}
            </Link>
          ) : null}
        </nav>
      </section>
    </main>
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
