import "server-only";
import { actorSummary, type ActorSummary } from "@/lib/audit/queries/actor-summary";
import { listAuditRows } from "@/lib/audit/queries/audit-rows";
import { filterQuery, PAGE_SIZE, parseAuditSearch, type AuditFilters, type ParsedAuditSearch } from "@/lib/audit/queries/filters";
import type { AuditPage } from "@/lib/audit/queries/read-page";
import { tenantChoices, type TenantChoice } from "@/lib/audit/queries/tenant-choices";
import { chainStatus, type ChainStatus } from "@/lib/audit/checkpoint";
import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import type { FieldProblem } from "@/lib/problems";

/** The audit explorer for one viewer and one URL (lib/read: the page only lays it out). */
export interface AuditModel {
  /** The filters the page understood, to fill the form. */
  readonly filters: AuditFilters;
  readonly raw: ParsedAuditSearch["raw"];
  /** Filters of the URL that were not understood: left out, and said so (the page words each problem). */
  readonly invalid: readonly { readonly field: string; readonly problem: FieldProblem }[];
  /** The understood filters, in the form's order, without the page position: what links carry on. */
  readonly linkParams: Readonly<Record<string, string>>;
  /** The products in the viewer's scope (none: the page says so and reads nothing else). */
  readonly tenants: readonly TenantChoice[];
  readonly page: AuditPage;
  readonly firstPage: boolean;
  /** Whether the log was edited behind the database's back, as the worker's last check found it. */
  readonly chain: ChainStatus;
  /** The CSV of this slice, for a viewer who may export it. */
  readonly exportHref: string | null;
}

/**
 * The explorer of `query` (the page's own query string): read field by field, so one bad filter (a
 * hand-edited URL, a NUL) is dropped and said instead of failing the page; facts of the viewer's
 * products only (a product filter outside the scope reads nothing).
 */
export async function readAudit(staff: Staff, query: string): Promise<AuditModel> {
  const parsed = parseAuditSearch(firstValues(new URLSearchParams(query)));
  const { filters, raw, position } = parsed;
  // Each reads the scope's facts only: an empty scope (or a product filter outside it) reads none.
  const [tenants, page, chain] = await Promise.all([
    tenantChoices(staff.tenantIds),
    listAuditRows({ scope: staff.tenantIds, filters, position, limit: PAGE_SIZE }),
    chainStatus(),
  ]);
  return {
    filters,
    raw,
    invalid: parsed.invalid,
    linkParams: Object.fromEntries(new URLSearchParams(filterQuery(raw))),
    tenants,
    page,
    firstPage: !("after" in position) && !("before" in position),
    chain,
    exportHref: can(staff.role, "audit:export") && tenants.length > 0 ? `/api/console/audit/export${filterQuery(raw)}` : null,
  };
}

/**
 * Who did how much over the range `query`'s filters cover, in the viewer's products. Read apart from
 * the explorer: it counts up to a month of facts (bounded by its own statement timeout, then
 * "too slow"), and the rows must not wait for it.
 */
export async function readAuditSummary(staff: Staff, query: string): Promise<ActorSummary> {
  const { filters } = parseAuditSearch(firstValues(new URLSearchParams(query)));
  return actorSummary(staff.tenantIds, filters, new Date());
}

/** Each parameter's first value, as a page reads a repeated one. */
function firstValues(params: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of params) values[name] ??= value;
  return values;
}
