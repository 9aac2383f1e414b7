import "server-only";
import { isOrderEvent } from "@/lib/orders/machine";
import { actionsOfKind, AUDIT_LOGS, isActionKind, type AuditLog } from "./kinds";
import { streamsFor, tenantsToRead, type AuditFilters, type AuditPosition } from "./filters";
import { alias, actorColumn, logStream, mergedPage, Params } from "./log-streams";
import { directionOf, EMPTY_PAGE, readPage, type AuditPage, type PageQuery } from "./read-page";

// The audit explorer's list: every fact of the four logs — order transitions, grants, internal
// notes and audit_events — in one newest-first stream (plans: log-streams.ts).
//
// Scope: a manager sees the facts of the tenants in their scope, by tenant_id. Facts without a
// tenant (sign-ins, staff-account changes) are NOT shown here: they are about people and
// credentials across every product, carry IP addresses, and belong to the admins' security log
// (security-rows.ts); a manager of one game has no business reading another team's sign-ins.

export interface AuditQuery {
  /** The caller's tenant scope (staff.tenantIds). */
  readonly scope: readonly string[];
  readonly filters: AuditFilters;
  readonly position?: AuditPosition;
  readonly limit: number;
}

/**
 * Note text is searched on the notes the scan walks (case-insensitive substring; no text index:
 * notes are written by hand, a few per order at most). Each page stops at its limit, newest first
 * from its position, within the filtered time range — and a search that finds little in a long
 * history is stopped after this long: the page says so and asks for a narrower range.
 */
export const NOTE_SEARCH_TIMEOUT = "3s";

const hasText = (column: string) => `(${column} IS NOT NULL AND ${column} <> '')`;

/** The filters each log can check, as conditions on that log's alias (the per-actor summary's too). */
export function logConditions(log: AuditLog, f: AuditFilters, p: Params): string[] {
  const a = alias(log);
  const where: string[] = [];
  if (f.actor !== undefined) where.push(`${actorColumn(log)} = ${p.add(f.actor)}`);
  if (f.from !== undefined) where.push(`${a}.created_at >= ${p.add(f.from)}`);
  if (f.to !== undefined) where.push(`${a}.created_at < ${p.add(f.to)}`);
  const reason = log === "action" ? hasText(`${a}.detail->>'reason'`) : hasText(`${a}.reason`);
  if (f.reason === "with") where.push(reason);
  if (f.reason === "without") where.push(`NOT ${reason}`);
  switch (log) {
    case "transition":
      if (f.event !== undefined) where.push(`${a}.event = ${p.add(f.event)}`);
      if (f.source !== undefined) where.push(`${a}.source = ${p.add(f.source)}`);
      break;
    case "grant":
      if (f.source !== undefined) where.push(`${a}.source = ${p.add(f.source)}`);
      break;
    case "note":
      // strpos over lower(): a substring with no pattern characters to escape (a LIKE would read % and _).
      if (f.text !== undefined) where.push(`strpos(lower(${a}.body), lower(${p.add(f.text)})) > 0`);
      break;
    case "action":
      if (f.event !== undefined && !isOrderEvent(f.event)) where.push(`${a}.action = ${p.add(f.event)}`);
      if (f.kind !== undefined && isActionKind(f.kind)) where.push(`${a}.action = ANY(${p.add(actionsOfKind(f.kind))}::text[])`);
      break;
  }
  return where;
}

/** The SQL and parameters of one page read: exported for the EXPLAIN tests. */
export function auditPageQuery(q: AuditQuery): PageQuery | null {
  const tenants = tenantsToRead(q.scope, q.filters.tenant);
  const streams = streamsFor(q.filters);
  const logs = AUDIT_LOGS.filter((log) => streams[log]);
  if (tenants.length === 0 || logs.length === 0) return null;
  const { direction, cursor } = directionOf(q.position ?? {});

  const p = new Params();
  const place = {
    tenants: p.add(tenants),
    // One more than the page: whether another page exists, without counting.
    limit: p.add(q.limit + 1),
    direction,
    ...(cursor ? { cursor } : {}),
    ...(q.filters.order !== undefined ? { orderNo: p.add(q.filters.order) } : {}),
  };
  const parts = logs.map((log) => logStream(log, logConditions(log, q.filters, p), place, p));
  return { text: mergedPage(parts, direction, place.limit), values: p.values, direction, ...(q.filters.text !== undefined ? { timeout: NOTE_SEARCH_TIMEOUT } : {}) };
}

/** One page of the explorer (or of the export), newest first. */
export async function listAuditRows(q: AuditQuery): Promise<AuditPage> {
  const query = auditPageQuery(q);
  if (!query) return EMPTY_PAGE;
  return readPage(query, q.limit, q.position ?? {});
}
