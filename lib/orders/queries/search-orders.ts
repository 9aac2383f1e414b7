import "server-only";
import { getPool } from "@/lib/db/pool";
import { isOrderState, ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import type { OrderSnapshot } from "@/lib/orders/types";

// The orders page: find orders by what a player or a channel tells support (order no, player id,
// payment transaction id), or browse them by product, state, created date and "stuck".
//
// Every statement here is a set of index range scans, never a scan of the table:
// - a search term is tried as all three kinds at once, each an equality lookup on its own index
//   (orders (tenant_id, order_no), orders (tenant_id, player_id, created_at), and the pay
//   transition's partial index order_transitions (tenant_id, biz_key) WHERE event = 'pay'); the few hits are then filtered;
// - browsing walks one (tenant, state) range at a time — a LATERAL subquery per pair, each reading
//   at most one page in index order — and merges them. With no state filter that is 7 short scans
//   per product rather than one scan over every state.
// Order: newest first by (created_at, id); the keyset cursor is that pair.

/** Rows per page unless the caller asks otherwise. */
export const PAGE_SIZE = 50;
/** Totals are exact up to here; past it the planner's estimate is shown, labelled as such. */
export const EXACT_COUNT_LIMIT = 10_000;

export type MatchKind = "orderNo" | "player" | "payment";

export interface OrderCursor {
  /** created_at in UTC with microseconds: a JavaScript Date would round it, and skip or repeat rows. */
  readonly createdAt: string;
  readonly id: number;
}

export interface OrderSearch {
  /** The tenants the caller may see (staff.tenantIds). Nothing outside them is ever read. */
  readonly scope: readonly string[];
  /** Exact order no, player id or payment transaction id. */
  readonly q?: string;
  readonly tenantId?: string;
  readonly state?: OrderState;
  /** Calendar days (YYYY-MM-DD), both inclusive, in `timeZone`. */
  readonly createdFrom?: string;
  readonly createdTo?: string;
  /** IANA zone the days are meant in (the viewer's); default UTC. */
  readonly timeZone?: string;
  /** Only orders in a state longer than their product's max_dwell_seconds for it. */
  readonly stuck?: boolean;
  /** `after`: the next (older) page; `before`: the previous (newer) page. */
  readonly after?: OrderCursor;
  readonly before?: OrderCursor;
  readonly limit?: number;
  readonly exactCountLimit?: number;
}

export interface OrderListRow extends Omit<OrderSnapshot, "version"> {
  readonly createdAt: Date;
  readonly secondsInState: number;
  /** The product's threshold for this state, when it has one. */
  readonly maxDwellSeconds: number | null;
  readonly stuck: boolean;
  /** How a search term matched this order (empty when browsing). */
  readonly matchedBy: readonly MatchKind[];
  readonly cursor: OrderCursor;
}

/**
 * How many orders match. Past the exact-count limit: the planner's estimate ("about"), or, when
 * even that is below what was counted, just "more than" the limit.
 */
export type OrderTotal =
  | { readonly kind: "exact"; readonly value: number }
  | { readonly kind: "estimate"; readonly value: number }
  | { readonly kind: "more-than"; readonly value: number };

export interface OrderSearchResult {
  readonly rows: readonly OrderListRow[];
  readonly total: OrderTotal;
  /** Cursor for the newer page, if there is one. */
  readonly newer: OrderCursor | null;
  /** Cursor for the older page, if there is one. */
  readonly older: OrderCursor | null;
}

export interface TenantOption {
  readonly id: string;
  readonly name: string;
}

/** The products a staff member may filter by. */
export async function scopeTenants(scope: readonly string[]): Promise<TenantOption[]> {
  if (scope.length === 0) return [];
  const { rows } = await getPool().query<TenantOption>(`SELECT id, name FROM tenants WHERE id = ANY($1) ORDER BY id`, [scope]);
  return rows;
}

const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(\d{1,15})$/;

/** For URLs: `2026-12-02T09:00:00.123456Z_42`. */
export function encodeCursor(cursor: OrderCursor): string {
  return `${cursor.createdAt}_${cursor.id}`;
}

export function decodeCursor(text: string | undefined): OrderCursor | undefined {
  const match = text ? CURSOR_PATTERN.exec(text) : null;
  if (!match || Number.isNaN(Date.parse(match[1]!))) return undefined;
  return { createdAt: match[1]!, id: Number(match[2]) };
}

type Thresholds = Readonly<Record<string, Partial<Record<OrderState, number>>>>;

interface Pair {
  readonly tenantId: string;
  readonly state: OrderState;
  /** Set when filtering stuck orders: the pair's threshold. */
  readonly dwell: number | null;
}

/** Builds a statement's text and positional parameters together, so they cannot drift apart. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

const ROW_COLUMNS = `o.id, o.tenant_id AS "tenantId", o.order_no AS "orderNo", o.player_id AS "playerId", o.amount, o.currency,
  o.state, o.state_at AS "stateAt", o.created_at AS "createdAt",
  floor(extract(epoch FROM now() - o.state_at))::int AS "secondsInState",
  to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "createdKey"`;

interface RawRow {
  id: number;
  tenantId: string;
  orderNo: string;
  playerId: string;
  amount: number;
  currency: string;
  state: OrderState;
  stateAt: Date;
  createdAt: Date;
  secondsInState: number;
  createdKey: string;
  matchedBy?: MatchKind[] | null;
}

export async function searchOrders(search: OrderSearch): Promise<OrderSearchResult> {
  const limit = search.limit ?? PAGE_SIZE;
  const countLimit = search.exactCountLimit ?? EXACT_COUNT_LIMIT;
  const tenants = search.tenantId === undefined ? [...new Set(search.scope)] : search.scope.includes(search.tenantId) ? [search.tenantId] : [];
  const empty: OrderSearchResult = { rows: [], total: { kind: "exact", value: 0 }, newer: null, older: null };
  if (tenants.length === 0) return empty;

  const { thresholds, fromAt, toAt } = await prelude(tenants, search);
  const states: readonly OrderState[] = search.state ? [search.state] : ORDER_STATES;
  const pairs: Pair[] = tenants.flatMap((tenantId) =>
    states.flatMap((state): Pair[] => {
      const dwell = thresholds[tenantId]?.[state] ?? null;
      if (search.stuck && dwell === null) return [];
      return [{ tenantId, state, dwell: search.stuck ? dwell : null }];
    }),
  );
  if (pairs.length === 0) return empty;

  // "previous page" reads upwards from its cursor, then turns the rows back to newest first.
  const direction = search.before ? "newer" : "older";
  const cursor = search.before ?? search.after;
  const filter: Filter = { pairs, fromAt, toAt, stuck: search.stuck === true };

  let raw: RawRow[];
  let total: OrderTotal;
  const q = search.q?.trim();
  if (q) {
    ({ raw, total } = await searchByTerm(q, tenants, filter, cursor, direction, limit));
  } else {
    [raw, total] = await Promise.all([browse(filter, cursor, direction, limit), countBrowse(filter, countLimit)]);
  }

  const more = raw.length > limit;
  const page = raw.slice(0, limit);
  if (direction === "newer") page.reverse();
  const rows = page.map((r) => toRow(r, thresholds));
  const first = rows[0]?.cursor ?? null;
  const last = rows.at(-1)?.cursor ?? null;
  return {
    rows,
    total,
    // Coming from a cursor, there is always something on the side we came from.
    newer: direction === "newer" ? (more ? first : null) : cursor ? first : null,
    older: direction === "older" ? (more ? last : null) : last,
  };
}

function toRow(r: RawRow, thresholds: Thresholds): OrderListRow {
  const dwell = thresholds[r.tenantId]?.[r.state] ?? null;
  return {
    id: r.id,
    tenantId: r.tenantId,
    orderNo: r.orderNo,
    playerId: r.playerId,
    amount: r.amount,
    currency: r.currency,
    state: r.state,
    stateAt: r.stateAt,
    createdAt: r.createdAt,
    secondsInState: r.secondsInState,
    maxDwellSeconds: dwell,
    stuck: dwell !== null && r.secondsInState > dwell,
    matchedBy: r.matchedBy ?? [],
    cursor: { createdAt: r.createdKey, id: r.id },
  };
}

/** Thresholds of the tenants in play and the created range as instants, in one round trip. */
async function prelude(
  tenants: readonly string[],
  search: OrderSearch,
): Promise<{ thresholds: Thresholds; fromAt: Date | null; toAt: Date | null }> {
  const { rows } = await getPool().query<{ thresholds: Record<string, Record<string, unknown>>; fromAt: Date | null; toAt: Date | null }>(
    `SELECT (SELECT coalesce(jsonb_object_agg(tenant_id, max_dwell_seconds), '{}') FROM tenant_settings WHERE tenant_id = ANY($1)) AS thresholds,
            $2::date::timestamp AT TIME ZONE $4::text AS "fromAt",
            ($3::date + 1)::timestamp AT TIME ZONE $4::text AS "toAt"`,
    [tenants, search.createdFrom ?? null, search.createdTo ?? null, search.timeZone ?? "UTC"],
  );
  const row = rows[0]!;
  const thresholds: Record<string, Partial<Record<OrderState, number>>> = {};
  for (const [tenantId, settings] of Object.entries(row.thresholds)) {
    const clean: Partial<Record<OrderState, number>> = {};
    for (const [state, seconds] of Object.entries(settings)) {
      // Settings are edited by people: a key that is no state, or a value that is not a number of at
      // least one second, is no threshold (the same rule as the queues).
      if (isOrderState(state) && typeof seconds === "number" && seconds >= 1) clean[state] = Math.floor(seconds);
    }
    thresholds[tenantId] = clean;
  }
  return { thresholds, fromAt: row.fromAt, toAt: row.toAt };
}

interface Filter {
  readonly pairs: readonly Pair[];
  readonly fromAt: Date | null;
  readonly toAt: Date | null;
  readonly stuck: boolean;
}

/** The (tenant, state, threshold) pairs as a relation `p`. */
function pairsRelation(filter: Filter, params: Params): string {
  const tenants = params.add(filter.pairs.map((p) => p.tenantId), "text[]");
  const states = params.add(filter.pairs.map((p) => p.state), "text[]");
  const dwell = params.add(filter.pairs.map((p) => p.dwell), "int[]");
  return `unnest(${tenants}, ${states}, ${dwell}) AS p(tenant_id, state, dwell)`;
}

/** Conditions on `o` beyond its (tenant, state) pair `p`. */
function conditions(filter: Filter, params: Params): string {
  const where: string[] = [];
  if (filter.fromAt) where.push(`o.created_at >= ${params.add(filter.fromAt, "timestamptz")}`);
  if (filter.toAt) where.push(`o.created_at < ${params.add(filter.toAt, "timestamptz")}`);
  // Served by orders (tenant_id, state, state_at): the threshold is the pair's, so each scan has its own bound.
  if (filter.stuck) where.push(`o.state_at < now() - p.dwell * interval '1 second'`);
  return where.map((w) => ` AND ${w}`).join("");
}

/** Rows past the cursor, in the reading direction; `createdAt` names the created_at column. */
function keyset(createdAt: string, cursor: OrderCursor | undefined, direction: Direction, params: Params): string {
  if (!cursor) return "";
  const op = direction === "older" ? "<" : ">";
  return ` AND (${createdAt}, o.id) ${op} (${params.add(cursor.createdAt, "timestamptz")}, ${params.add(cursor.id, "bigint")})`;
}

type Direction = "older" | "newer";

function orderBy(createdAt: string, direction: Direction): string {
  const dir = direction === "older" ? "DESC" : "ASC";
  return `${createdAt} ${dir}, o.id ${dir}`;
}

async function browse(filter: Filter, cursor: OrderCursor | undefined, direction: Direction, limit: number): Promise<RawRow[]> {
  const params = new Params();
  const pairs = pairsRelation(filter, params);
  const where = conditions(filter, params) + keyset("o.created_at", cursor, direction, params);
  const n = params.add(limit + 1, "int");
  const { rows } = await getPool().query<RawRow>(
    `SELECT o.* FROM ${pairs}
     CROSS JOIN LATERAL (
       SELECT ${ROW_COLUMNS} FROM orders o
       WHERE o.tenant_id = p.tenant_id AND o.state = p.state${where}
       ORDER BY ${orderBy("o.created_at", direction)} LIMIT ${n}
     ) o
     ORDER BY ${orderBy(`o."createdAt"`, direction)} LIMIT ${n}`,
    params.values,
  );
  return rows;
}

/**
 * Exact up to `countLimit` (each pair's scan stops there too, so a count never reads more than that
 * many index entries); past it, the planner's estimate for the same conditions.
 */
async function countBrowse(filter: Filter, countLimit: number): Promise<OrderTotal> {
  const params = new Params();
  const pairs = pairsRelation(filter, params);
  const where = conditions(filter, params);
  const cap = params.add(countLimit + 1, "int");
  // The ORDER BY is there for the planner, not the count: the pair is a parameter, so it cannot
  // see that a small state is small, and with a bare LIMIT it bets on a sequential scan finding
  // enough rows early (measured: 1.5 s at 1,000,000 orders). Asking for index order keeps it on
  // the range scan: the state_at index for stuck, the page's own order otherwise.
  const order = filter.stuck ? `o.state_at` : orderBy("o.created_at", "older");
  const { rows } = await getPool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM ${pairs}
       CROSS JOIN LATERAL (
         SELECT 1 FROM orders o WHERE o.tenant_id = p.tenant_id AND o.state = p.state${where} ORDER BY ${order} LIMIT ${cap}
       ) o
       LIMIT ${cap}
     ) c`,
    params.values,
  );
  const n = rows[0]!.n;
  if (n <= countLimit) return { kind: "exact", value: n };
  const planned = await estimate(filter);
  return planned > countLimit ? { kind: "estimate", value: planned } : { kind: "more-than", value: countLimit };
}

/** The planner's row estimate, from statistics only: EXPLAIN plans the query and runs nothing. */
async function estimate(filter: Filter): Promise<number> {
  const params = new Params();
  // Spelled out per pair (not as the LATERAL walk), so the planner estimates each from its statistics.
  const perPair = filter.pairs.map((p) => {
    const stuck = filter.stuck && p.dwell !== null ? ` AND o.state_at < now() - ${params.add(p.dwell, "int")} * interval '1 second'` : "";
    return `(o.tenant_id = ${params.add(p.tenantId, "text")} AND o.state = ${params.add(p.state, "text")}${stuck})`;
  });
  const range = [
    filter.fromAt ? ` AND o.created_at >= ${params.add(filter.fromAt, "timestamptz")}` : "",
    filter.toAt ? ` AND o.created_at < ${params.add(filter.toAt, "timestamptz")}` : "",
  ].join("");
  const { rows } = await getPool().query<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM orders o WHERE (${perPair.join(" OR ")})${range}`,
    params.values,
  );
  const planned = rows[0]!["QUERY PLAN"][0].Plan["Plan Rows"];
  // Two significant figures: it is an estimate, and should not look like a count.
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(planned, 1))) - 1);
  return Math.round(planned / magnitude) * magnitude;
}

/**
 * One search term, tried as all three kinds (nothing is guessed from its shape: an order no, a
 * player id and a transaction id can look alike). The hits are few, so filtering, counting and
 * paging them after the lookups is cheap; the total comes back on every row (and on a lone
 * all-null row when the page is empty).
 */
async function searchByTerm(
  q: string,
  tenants: readonly string[],
  filter: Filter,
  cursor: OrderCursor | undefined,
  direction: Direction,
  limit: number,
): Promise<{ raw: RawRow[]; total: OrderTotal }> {
  const params = new Params();
  const scope = params.add(tenants, "text[]");
  const term = params.add(q, "text");
  const pairs = pairsRelation(filter, params);
  const filters = conditions(filter, params);
  const after = keyset(`o."createdAt"`, cursor, direction, params);
  const n = params.add(limit + 1, "int");
  const { rows } = await getPool().query<{ total: number } & (RawRow | { [K in keyof RawRow]: null })>(
    // Each lookup returns the order rows themselves, so the few hits are filtered as they are: the
    // filters never get a chance to drive the plan into a scan of a whole (tenant, state) range.
    `WITH hit AS (
       SELECT o.*, 'orderNo' AS kind FROM orders o WHERE o.tenant_id = ANY(${scope}) AND o.order_no = ${term}
       UNION ALL
       SELECT o.*, 'player' FROM orders o WHERE o.tenant_id = ANY(${scope}) AND o.player_id = ${term}
       UNION ALL
       SELECT o.*, 'payment' FROM order_transitions t JOIN orders o ON o.id = t.order_id AND o.tenant_id = t.tenant_id
       WHERE t.tenant_id = ANY(${scope}) AND t.event = 'pay' AND t.biz_key = ${term}
     ), found AS MATERIALIZED (
       SELECT DISTINCT ON (o.id) ${ROW_COLUMNS},
              (SELECT array_agg(DISTINCT h.kind ORDER BY h.kind) FROM hit h WHERE h.id = o.id) AS "matchedBy"
       FROM hit o JOIN ${pairs} ON p.tenant_id = o.tenant_id AND p.state = o.state
       WHERE true${filters}
     )
     SELECT t.total, o.* FROM (SELECT count(*)::int AS total FROM found) t
     LEFT JOIN LATERAL (
       SELECT * FROM found o WHERE true${after}
       ORDER BY ${orderBy(`o."createdAt"`, direction)} LIMIT ${n}
     ) o ON true`,
    params.values,
  );
  return { raw: rows.filter((r): r is { total: number } & RawRow => r.id !== null), total: { kind: "exact", value: rows[0]?.total ?? 0 } };
}
