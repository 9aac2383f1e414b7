import "server-only";
import type { Staff } from "@/lib/auth/staff";
import { PAGE_SIZE } from "@/lib/audit/queries/filters";
import type { AuditPage } from "@/lib/audit/queries/read-page";
import { parseSecuritySearch, securityQuery, type ParsedSecuritySearch, type SecurityFilters } from "@/lib/audit/queries/security-filters";
import { listSecurityRows } from "@/lib/audit/queries/security-rows";

/**
 * The security log's read model for one URL: the page of facts (sign-ins, lockouts, refusals, staff
 * and API-key changes — those without a product, and those of the viewer's own products), and the
 * filters as understood, to refill the form and build links.
 */
export interface SecurityModel {
  readonly filters: SecurityFilters;
  readonly raw: ParsedSecuritySearch["raw"];
  /** Filters of the URL that could not be read: dropped, and said on the page. */
  readonly invalid: ParsedSecuritySearch["invalid"];
  readonly page: AuditPage;
  readonly isFirstPage: boolean;
  /** The understood filters as a query string ("" or "?…"), without the page position: links add to it. */
  readonly query: string;
}

type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

/** The security log of `params` (the page's own query string): a bad filter is dropped and said, never a failed page. */
export async function readSecurity(staff: Staff, params: SearchParams): Promise<SecurityModel> {
  const { filters, raw, invalid, position } = parseSecuritySearch(params);
  const page = await listSecurityRows({ scope: staff.tenantIds, filters, position, limit: PAGE_SIZE });
  return { filters, raw, invalid, page, isFirstPage: !("after" in position) && !("before" in position), query: securityQuery(raw) };
}
