import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { ORDER_EVENTS, ORDER_STATES, SOURCES, type OrderEvent, type OrderState, type Source } from "@/lib/orders/machine";
import { encodeCursor, idBound, KIND_RANK, type AuditCursor } from "./cursor";
import { streamsFor, tenantsToRead, type AuditFilters, type AuditPosition } from "./filters";

// The audit explorer's list: order transitions and staff actions in one newest-first stream.
//
// Scope: a manager sees the rows of the tenants in their scope — transitions by their tenant_id,
// staff actions (audit_events) only when tenant_id is one of those tenants. Staff actions without
// a tenant (sign-ins, staff-account changes, API-key admin) are NOT shown here: they are about
// people and credentials across every product, carry IP addresses, and belong to the admins'
// screens; a manager of one game has no business reading another team's sign-ins.
//
// Plans: each log is read per tenant (a LATERAL subquery per tenant id) in index order with its own
// LIMIT, and the per-tenant streams are merged and cut to the page. A single `tenant_id = ANY(…)`
// scan cannot return rows in created_at order, so it would read every row in scope and sort them.
// - order_transitions: (tenant_id, created_at DESC, id DESC), or (tenant_id, actor, created_at
//   DESC, id DESC) with an actor filter; other filters are checked on the rows the scan walks.
// - audit_events: (created_at DESC, id DESC), tenant and filters checked on the way.
// The page position is a row comparison `(created_at, id) < (…)`: an index range, so page 1,000
// costs what page 1 costs.

interface RowBase {
  readonly id: number;
  /** ISO 8601 UTC with microseconds (the exact stored value). */
  readonly at: string;
  readonly cursor: string;
  readonly tenantId: string | null;
  readonly actor: string;
  readonly reason: string | null;
}

export interface TransitionRow extends RowBase {
  readonly kind: "transition";
  readonly tenantId: string;
  readonly event: OrderEvent;
  readonly from: OrderState;
  readonly to: OrderState;
  readonly source: Source;
  readonly bizKey: string;
  readonly orderId: number;
  /** Null only if the order row is gone (orders are never deleted; this is a guard, not a case). */
  readonly orderNo: string | null;
}

export interface StaffActionRow extends RowBase {
  readonly kind: "staff";
  readonly action: string;
  readonly target: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
}

export type AuditRow = TransitionRow | StaffActionRow;

export interface AuditPage {
  readonly rows: readonly AuditRow[];
  /** Position for the next (older) page; null on the last page. */
  readonly older: AuditCursor | null;
  /** Position for the previous (newer) page; null on the first page. */
  readonly newer: AuditCursor | null;
}

export interface AuditQuery {
  /** The caller's tenant scope (staff.tenantIds). */
  readonly scope: readonly string[];
  readonly filters: AuditFilters;
  readonly position?: AuditPosition;
  readonly limit: number;
}

type Direction = "older" | "newer";

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const HAS_REASON_T = `(ot.reason IS NOT NULL AND ot.reason <> '')`;
const HAS_REASON_S = `coalesce(ae.detail->>'reason', '') <> ''`;
const ISO_MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

function transitionsSql(q: AuditQuery, tenants: string, dir: Direction, cursor: AuditCursor | undefined, p: Params, perTenant: string): string {
  const f = q.filters;
  const where = ["ot.tenant_id = s.tenant_id"];
  if (f.actor !== undefined) where.push(`ot.actor = ${p.add(f.actor)}`);
  if (f.event !== undefined) where.push(`ot.event = ${p.add(f.event)}`);
  if (f.source !== undefined) where.push(`ot.source = ${p.add(f.source)}`);
  if (f.reason === "with") where.push(HAS_REASON_T);
  if (f.reason === "without") where.push(`NOT ${HAS_REASON_T}`);
  if (f.from !== undefined) where.push(`ot.created_at >= ${p.add(f.from)}`);
  if (f.to !== undefined) where.push(`ot.created_at < ${p.add(f.to)}`);
  if (cursor) {
    where.push(`(ot.created_at, ot.id) ${dir === "older" ? "<" : ">"} (${p.add(cursor.at)}::timestamptz, ${p.add(idBound(cursor, "transition"))}::bigint)`);
  }
  const order = dir === "older" ? "DESC" : "ASC";
  return `SELECT 1 AS rank, ot.id, ot.created_at, ot.tenant_id, ot.actor, ot.reason, ot.event, ot.from_state, ot.to_state,
            ot.source, ot.biz_key, ot.order_id, NULL::text AS target, NULL::jsonb AS detail
          FROM unnest(${tenants}::text[]) AS s(tenant_id)
          CROSS JOIN LATERAL (
            SELECT * FROM order_transitions ot WHERE ${where.join(" AND ")}
            ORDER BY ot.created_at ${order}, ot.id ${order} LIMIT ${perTenant}
          ) ot`;
}

function staffSql(q: AuditQuery, tenants: string, dir: Direction, cursor: AuditCursor | undefined, p: Params, perTenant: string): string {
  const f = q.filters;
  const where = ["ae.tenant_id = s.tenant_id"];
  if (f.actor !== undefined) where.push(`ae.actor = ${p.add(f.actor)}`);
  if (f.event !== undefined) where.push(`ae.action = ${p.add(f.event)}`);
  if (f.reason === "with") where.push(HAS_REASON_S);
  if (f.reason === "without") where.push(`NOT (${HAS_REASON_S})`);
  if (f.from !== undefined) where.push(`ae.created_at >= ${p.add(f.from)}`);
  if (f.to !== undefined) where.push(`ae.created_at < ${p.add(f.to)}`);
  if (cursor) {
    where.push(`(ae.created_at, ae.id) ${dir === "older" ? "<" : ">"} (${p.add(cursor.at)}::timestamptz, ${p.add(idBound(cursor, "staff"))}::bigint)`);
  }
  const order = dir === "older" ? "DESC" : "ASC";
  return `SELECT 0 AS rank, ae.id, ae.created_at, ae.tenant_id, ae.actor, ae.detail->>'reason' AS reason, ae.action AS event,
            NULL::text AS from_state, NULL::text AS to_state, NULL::text AS source, NULL::text AS biz_key, NULL::bigint AS order_id,
            ae.target, ae.detail
          FROM unnest(${tenants}::text[]) AS s(tenant_id)
          CROSS JOIN LATERAL (
            SELECT * FROM audit_events ae WHERE ${where.join(" AND ")}
            ORDER BY ae.created_at ${order}, ae.id ${order} LIMIT ${perTenant}
          ) ae`;
}

/** The SQL and parameters of one page read: exported for the EXPLAIN tests. */
export function auditPageQuery(q: AuditQuery): { text: string; values: unknown[]; direction: Direction } | null {
  const tenants = tenantsToRead(q.scope, q.filters.tenant);
  const streams = streamsFor(q.filters);
  if (tenants.length === 0 || (!streams.transitions && !streams.staff)) return null;
  const position = q.position ?? {};
  const direction: Direction = "before" in position ? "newer" : "older";
  const cursor = "after" in position ? position.after : "before" in position ? position.before : undefined;

  const p = new Params();
  const tenantsParam = p.add(tenants);
  // One more than the page: whether another page exists, without counting.
  const limitParam = p.add(q.limit + 1);
  const parts: string[] = [];
  if (streams.transitions) parts.push(transitionsSql(q, tenantsParam, direction, cursor, p, limitParam));
  if (streams.staff) parts.push(staffSql(q, tenantsParam, direction, cursor, p, limitParam));
  const order = direction === "older" ? "DESC" : "ASC";
  const text = `
    SELECT u.rank, u.id, to_char(u.created_at AT TIME ZONE 'UTC', ${ISO_MICROS}) AS at, u.tenant_id AS "tenantId", u.actor, u.reason,
           u.event, u.from_state AS "from", u.to_state AS "to", u.source, u.biz_key AS "bizKey", u.order_id AS "orderId",
           u.target, u.detail,
           -- A lookup per row (orders_pkey), not a join: for an export page of 5,000 rows the planner
           -- would otherwise merge-join against a full scan of orders.
           (SELECT o.order_no FROM orders o WHERE o.id = u.order_id) AS "orderNo"
    FROM (
      SELECT * FROM (${parts.join(" UNION ALL ")}) merged
      ORDER BY merged.created_at ${order}, merged.rank ${order}, merged.id ${order}
      LIMIT ${limitParam}
    ) u
    ORDER BY u.created_at ${order}, u.rank ${order}, u.id ${order}`;
  return { text, values: p.values, direction };
}

// One schema per log, told apart by the rank the SQL gives each (KIND_RANK): the columns a log
// fills with NULL are not read from its rows.
const common = { id: z.number(), at: z.string(), actor: z.string(), reason: z.string().nullable() };

const transitionRaw = z.object({
  ...common,
  rank: z.literal(KIND_RANK.transition),
  tenantId: z.string(),
  event: z.enum(ORDER_EVENTS),
  from: z.enum(ORDER_STATES),
  to: z.enum(ORDER_STATES),
  source: z.enum(SOURCES),
  bizKey: z.string(),
  orderId: z.number(),
  orderNo: z.string().nullable(),
});

const staffRaw = z.object({
  ...common,
  rank: z.literal(KIND_RANK.staff),
  tenantId: z.string().nullable(),
  event: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

const auditRaw = z.discriminatedUnion("rank", [transitionRaw, staffRaw]);

function toRow(r: z.output<typeof auditRaw>): AuditRow {
  const base = { id: r.id, at: r.at, actor: r.actor, reason: r.reason };
  if (r.rank === KIND_RANK.transition) {
    const { tenantId, event, from, to, source, bizKey, orderId, orderNo } = r;
    const cursor = encodeCursor({ at: r.at, kind: "transition", id: r.id });
    return { ...base, cursor, kind: "transition", tenantId, event, from, to, source, bizKey, orderId, orderNo };
  }
  const cursor = encodeCursor({ at: r.at, kind: "staff", id: r.id });
  return { ...base, cursor, kind: "staff", tenantId: r.tenantId, action: r.event, target: r.target, detail: r.detail ?? {} };
}

function positionOf(row: AuditRow): AuditCursor {
  return { at: row.at, kind: row.kind, id: row.id };
}

/** One page of the explorer (or of the export), newest first. */
export async function listAuditRows(q: AuditQuery): Promise<AuditPage> {
  const query = auditPageQuery(q);
  if (!query) return { rows: [], older: null, newer: null };
  const raw = await rows(getPool(), auditRaw, query.text, query.values);
  const more = raw.length > q.limit;
  const page = raw.slice(0, q.limit).map(toRow);
  const position = q.position ?? {};
  if (query.direction === "newer") {
    // Read oldest-first from the cursor up; shown newest-first. The cursor row itself is older.
    page.reverse();
    return {
      rows: page,
      newer: more && page[0] ? positionOf(page[0]) : null,
      older: page.length > 0 ? positionOf(page[page.length - 1]!) : "before" in position ? position.before : null,
    };
  }
  return {
    rows: page,
    older: more && page.length > 0 ? positionOf(page[page.length - 1]!) : null,
    // Came from a position: the rows before it are newer.
    newer: "after" in position && page[0] ? positionOf(page[0]) : "after" in position ? position.after : null,
  };
}
