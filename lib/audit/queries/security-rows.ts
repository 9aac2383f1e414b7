import "server-only";
import type { AuditPosition } from "./filters";
import { logStream, mergedPage, Params } from "./log-streams";
import { directionOf, readPage, type AuditPage, type PageQuery } from "./read-page";
import { securityActions, type SecurityFilters } from "./security-filters";

// The admins' security log: sign-ins (success, failure, lockout, sign-out, refused API keys),
// access denied, staff-account and API-key changes — newest first, keyset paged, from audit_events
// only, through the explorer's own stream and page SQL (log-streams.ts).
//
// Scope: the facts without a tenant (sign-ins and staff accounts belong to no product) and the
// facts of the admin's own tenants; never another tenant's (its keys, its refusals). An admin with
// no tenant sees the facts without one.

export interface SecurityQuery {
  readonly scope: readonly string[];
  readonly filters: SecurityFilters;
  readonly position?: AuditPosition;
  readonly limit: number;
}

/**
 * A person or an address is checked on the rows the scan walks (actor and target are two columns,
 * and sign-in failures name no actor); a search that finds little in a long history stops here.
 */
export const SECURITY_SEARCH_TIMEOUT = "3s";

/** The SQL and parameters of one page read: exported for the EXPLAIN tests. */
export function securityPageQuery(q: SecurityQuery): PageQuery {
  const f = q.filters;
  const { direction, cursor } = directionOf(q.position ?? {});
  const p = new Params();
  // No tenant in scope: no per-tenant stream, and no parameter for it (PostgreSQL refuses an unused one it cannot type).
  const tenants = q.scope.length > 0 ? p.add(q.scope) : "'{}'";
  const place = { tenants, limit: p.add(q.limit + 1), direction, ...(cursor ? { cursor } : {}) };
  const where = [`ae.action = ANY(${p.add(securityActions(f.action))}::text[])`];
  if (f.who !== undefined) {
    const who = p.add(f.who);
    where.push(`(ae.actor IN (${who}, 'staff:' || ${who}) OR ae.target IN (${who}, 'staff:' || ${who}))`);
  }
  if (f.ip !== undefined) where.push(`ae.ip = ${p.add(f.ip)}`);
  if (f.from !== undefined) where.push(`ae.created_at >= ${p.add(f.from)}`);
  if (f.to !== undefined) where.push(`ae.created_at < ${p.add(f.to)}`);
  const streams = [logStream("action", where, place, p, { tenantless: true })];
  if (q.scope.length > 0) streams.push(logStream("action", where, place, p));
  const searching = f.who !== undefined || f.ip !== undefined;
  return { text: mergedPage(streams, direction, place.limit), values: p.values, direction, ...(searching ? { timeout: SECURITY_SEARCH_TIMEOUT } : {}) };
}

export async function listSecurityRows(q: SecurityQuery): Promise<AuditPage> {
  return readPage(securityPageQuery(q), q.limit, q.position ?? {});
}
