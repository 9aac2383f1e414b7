import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { auditCsvStream } from "@/lib/audit/queries/audit-csv";
import { auditFilterInput } from "@/lib/audit/queries/filters";
import { audit } from "@/lib/audit/record";
import { optionalTenantScope } from "@/lib/auth/scope";

type Filters = RouteRequest<ReturnType<typeof auditFilterInput.parse>>;

/**
 * The audit explorer's filtered slice as CSV, streamed: the same query string as the page
 * (its page position is ignored — an export starts at the newest row and runs to the last).
 * Asking for a product outside one's scope is refused (and audited), not silently emptied.
 */
export const GET = staffRoute(
  { name: "console.audit-export", permission: "audit:export", input: auditFilterInput, scope: optionalTenantScope((r: Filters) => r.input.tenant) },
  async ({ staff, actor, input, log }) => {
    const { after: _after, before: _before, ...filters } = input;
    const stamp = new Date().toISOString().slice(0, 19).replaceAll(/[-:]/g, "");
    const name = `audit-${filters.tenant ?? "all"}-${stamp}Z.csv`;
    // Who took which slice of the audit log out of the system is itself audited.
    await audit({ actor, action: "audit.exported", target: name, tenantId: filters.tenant ?? null, detail: { filters } });
    log.info({ staff: staff.email, filters }, "audit export started");
    return new Response(auditCsvStream({ scope: staff.tenantIds, filters, log }), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
