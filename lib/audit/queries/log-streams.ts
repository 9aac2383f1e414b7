// The SQL of one keyset page over the audit logs, shared by the explorer and the security log. Pure.
//
// Plans: each log is read per tenant (a LATERAL subquery per tenant id) in index order with its own
// LIMIT, and the streams are merged and cut to the page. A single `tenant_id = ANY(…)` scan cannot
// return rows in created_at order, so it would read every row in scope and sort them.
// - every log has (tenant_id, created_at DESC, id DESC) and (tenant_id, actor|author, created_at
//   DESC, id DESC); the actor index serves an actor filter, other filters are checked on the rows
//   the scan walks;
// - facts without a tenant (audit_events only: sign-ins, staff accounts) are the `tenant_id IS NULL`
//   range of the same index — read by the security log, never by the explorer;
// - with an order filter the order number is looked up per tenant (orders' (tenant_id, order_no)
//   key) and each log is read through its (tenant_id, order_id, …) index: an order has few facts,
//   sorted in memory.
// The page position is a row comparison `(created_at, id) < (…)`: an index range, so page 1,000
// costs what page 1 costs.
import type { AuditCursor } from "./cursor";
import { idBound, LOG_RANK } from "./cursor";
import type { AuditLog } from "./kinds";

export type Direction = "older" | "newer";

/** Positional parameters of one statement, added as the SQL is written. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

interface LogSource {
  readonly table: string;
  readonly alias: string;
  /** Who: staff write notes as their author. */
  readonly actor: string;
  readonly reason: string;
  /** The log's own columns, as one JSON object (decoded per log in audit-row.ts). */
  readonly data: string;
}

const SOURCES: Readonly<Record<AuditLog, LogSource>> = {
  transition: {
    table: "order_transitions",
    alias: "ot",
    actor: "ot.actor",
    reason: "ot.reason",
    data: `jsonb_build_object('event', ot.event, 'from', ot.from_state, 'to', ot.to_state, 'source', ot.source, 'bizKey', ot.biz_key)`,
  },
  grant: {
    table: "grants",
    alias: "g",
    actor: "g.actor",
    reason: "g.reason",
    data: `jsonb_build_object('sku', g.sku, 'quantity', g.quantity, 'grantId', g.grant_id, 'source', g.source)`,
  },
  note: { table: "order_notes", alias: "n", actor: "n.author", reason: "NULL::text", data: `jsonb_build_object('body', n.body, 'correctsId', n.corrects_id)` },
  action: {
    table: "audit_events",
    alias: "ae",
    actor: "ae.actor",
    reason: "ae.detail->>'reason'",
    data: `jsonb_build_object('action', ae.action, 'target', ae.target, 'detail', ae.detail, 'ip', ae.ip)`,
  },
};

/** The alias each log's conditions are written against: `${alias(log)}.created_at`. */
export function alias(log: AuditLog): string {
  return SOURCES[log].alias;
}

export function tableOf(log: AuditLog): string {
  return SOURCES[log].table;
}

/** The column holding who did it (notes: their author). */
export function actorColumn(log: AuditLog): string {
  return SOURCES[log].actor;
}

export interface PagePlace {
  /** Parameter holding the tenants to read (text[]). */
  readonly tenants: string;
  /** Parameter holding an order number: only that order's facts. */
  readonly orderNo?: string;
  readonly direction: Direction;
  readonly cursor?: AuditCursor;
  /** Parameter holding the rows to read per stream (the page plus one). */
  readonly limit: string;
}

/**
 * One log's stream: per tenant of `place.tenants` (or, with `tenantless`, the facts without a
 * tenant), the rows matching `where`, past the cursor, in index order.
 */
export function logStream(log: AuditLog, where: readonly string[], place: PagePlace, p: Params, options: { readonly tenantless?: boolean } = {}): string {
  const src = SOURCES[log];
  const a = src.alias;
  const conditions = [options.tenantless ? `${a}.tenant_id IS NULL` : `${a}.tenant_id = s.tenant_id`, ...where];
  if (place.orderNo !== undefined && !options.tenantless) conditions.push(`${a}.order_id = o.id`);
  if (place.cursor) {
    const past = place.direction === "older" ? "<" : ">";
    conditions.push(`(${a}.created_at, ${a}.id) ${past} (${p.add(place.cursor.at)}::timestamptz, ${p.add(idBound(place.cursor, log))}::bigint)`);
  }
  const order = place.direction === "older" ? "DESC" : "ASC";
  const inner = `SELECT ${a}.id, ${a}.created_at, ${a}.tenant_id, ${a}.order_id, ${src.actor} AS actor, ${src.reason} AS reason, ${src.data} AS data
            FROM ${src.table} ${a} WHERE ${conditions.join(" AND ")}
            ORDER BY ${a}.created_at ${order}, ${a}.id ${order} LIMIT ${place.limit}`;
  const rank = LOG_RANK[log];
  if (options.tenantless) return `SELECT ${rank} AS rank, x.* FROM (${inner}) x`;
  return `SELECT ${rank} AS rank, x.* FROM ${perTenant(place.tenants, place.orderNo)} CROSS JOIN LATERAL (${inner}) x`;
}

/**
 * The rows a stream's LATERAL subquery runs once for: each tenant as `s` — with an order filter,
 * joined to that tenant's order of that number as `o` (no such order: no row, nothing read).
 */
export function perTenant(tenants: string, orderNo?: string): string {
  return orderNo !== undefined
    ? `unnest(${tenants}::text[]) AS s(tenant_id) JOIN orders o ON o.tenant_id = s.tenant_id AND o.order_no = ${orderNo}`
    : `unnest(${tenants}::text[]) AS s(tenant_id)`;
}

const ISO_MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** The streams merged and cut to the page, each row with its order's number and currency. */
export function mergedPage(streams: readonly string[], direction: Direction, limit: string): string {
  const order = direction === "older" ? "DESC" : "ASC";
  return `
    SELECT u.rank, u.id, to_char(u.created_at AT TIME ZONE 'UTC', ${ISO_MICROS}) AS at, u.tenant_id AS "tenantId", u.order_id AS "orderId",
           u.actor, u.reason, u.data, o.order_no AS "orderNo", o.currency
    FROM (
      SELECT * FROM (${streams.join(" UNION ALL ")}) merged
      ORDER BY merged.created_at ${order}, merged.rank ${order}, merged.id ${order}
      LIMIT ${limit}
    ) u
    -- A lookup per row (orders_pkey), not a join: OFFSET 0 keeps the planner from flattening it into
    -- a join, which for an export page of 5,000 rows it would merge against a full scan of orders.
    LEFT JOIN LATERAL (SELECT o.order_no, o.currency FROM orders o WHERE o.id = u.order_id OFFSET 0) o ON true
    ORDER BY u.created_at ${order}, u.rank ${order}, u.id ${order}`;
}
