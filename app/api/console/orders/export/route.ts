import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { audit } from "@/lib/audit/record";
import { optionalTenantScope } from "@/lib/auth/scope";
import { ordersCsvStream } from "@/lib/orders/queries/orders-csv";
import { checkRange, viewFilterFields, viewFiltersOf } from "@/lib/views/view-filters";

// The orders list's query string, checked strictly: an export of something other than what was
// asked for is worse than a refusal (the page, by contrast, drops a bad filter and says so).
const input = z.object(viewFilterFields).superRefine(checkRange);

type Filters = RouteRequest<z.output<typeof input>>;

/**
 * The filtered orders list as CSV, streamed: the same filters as the page (its page position is
 * ignored — an export starts at the newest order and runs to the last), every order in the caller's
 * products or the one asked for. Asking for a product outside one's scope is refused (and audited),
 * not silently emptied. Who took which slice out is itself audited, as for the audit log's export.
 */
export const GET = staffRoute(
  { name: "console.orders-export", permission: "orders:export", input, scope: optionalTenantScope((r: Filters) => r.input.tenant) },
  async ({ staff, actor, input, resource, log }) => {
    const filters = { ...viewFiltersOf(input), ...(resource.tenantId ? { tenant: resource.tenantId } : {}) };
    const stamp = new Date().toISOString().slice(0, 19).replaceAll(/[-:]/g, "");
    const name = `orders-${resource.tenantId ?? "all"}-${stamp}Z.csv`;
    await audit({ actor, action: "orders.exported", target: name, tenantId: resource.tenantId, detail: { filters } });
    log.info({ staff: staff.email, filters }, "orders export started");
    const search = {
      scope: staff.tenantIds,
      ...(filters.q ? { q: filters.q } : {}),
      ...(resource.tenantId ? { tenantId: resource.tenantId } : {}),
      ...(filters.state ? { state: filters.state } : {}),
      ...(filters.from ? { createdFrom: filters.from } : {}),
      ...(filters.to ? { createdTo: filters.to } : {}),
      timeZone: filters.tz ?? "UTC",
      stuck: filters.stuck === true,
    };
    return new Response(ordersCsvStream({ search, log }), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
