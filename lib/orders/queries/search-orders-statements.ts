import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import { STORES } from "@/lib/orders/store-names";
import type { MatchKind, OrderCursor, OrderTotal } from "./search-orders";

// The statements behind searchOrders() (search-orders.ts says why each is a set of index range
// scans), each beside the schema that decodes its rows. The plan tests and the large-data benchmark
// EXPLAIN exactly this text: an edit to it is an edit to the plans, to be measured again.

const MATCH_KINDS = ["orderNo", "player", "payment", "refund", "receipt", "store", "grant", "case"] as const satisfies readonly MatchKind[];

/** The events whose bizKey is a refund's id (request-refund) or the channel's or store's receipt for it. */
const REFUND_EVENTS = `'request-refund', 'confirm-refund', 'reject-refund', 'reverse-refund'`;
const STORE_NAMES = STORES.map((s) => `'${s}'`).join(", ");

/**
 * The orders a search term names, as `hit` rows (the order's columns and the kind of match): one
 * equality lookup per place an id the console shows is kept, each on its own index leading with
 * tenant_id, only in the given tenants (`scope` and `term` are placeholders of the caller's
 * statement). The orders list and the header's jump (jump-to-order.ts) both read this, so a kind
 * added here (one branch) is found by both. Migration 20261205120000_search_ids made the indexes
 * the older lookups lacked.
 */
export function termHits(scope: string, term: string): string {
  const order = (alias: string) => `JOIN orders o ON o.id = ${alias}.order_id AND o.tenant_id = ${alias}.tenant_id`;
  return `
       SELECT o.*, 'orderNo' AS kind FROM orders o WHERE o.tenant_id = ANY(${scope}) AND lower(o.order_no) = lower(${term})
       UNION ALL
       SELECT o.*, 'player' FROM orders o WHERE o.tenant_id = ANY(${scope}) AND o.player_id = ${term}
       UNION ALL
       SELECT o.*, 'payment' FROM order_transitions t ${order("t")}
       WHERE t.tenant_id = ANY(${scope}) AND t.event = 'pay' AND t.biz_key = ${term}
       UNION ALL
       SELECT o.*, CASE WHEN t.event = 'request-refund' THEN 'refund' ELSE 'receipt' END FROM order_transitions t ${order("t")}
       WHERE t.tenant_id = ANY(${scope}) AND t.event IN (${REFUND_EVENTS}) AND t.biz_key = ${term}
       UNION ALL
       SELECT o.*, CASE WHEN e.event = 'pay' THEN 'payment' ELSE 'case' END FROM order_exceptions e ${order("e")}
       WHERE e.tenant_id = ANY(${scope}) AND e.biz_key <> '' AND e.biz_key = ${term}
       UNION ALL
       SELECT o.*, 'refund' FROM payment_refunds r ${order("r")}
       WHERE r.tenant_id = ANY(${scope}) AND r.refund_id = ${term}
       UNION ALL
       SELECT o.*, 'receipt' FROM payment_refunds r ${order("r")}
       WHERE r.tenant_id = ANY(${scope}) AND r.channel_ref IS NOT NULL AND r.channel_ref = ${term}
       UNION ALL
       SELECT o.*, 'payment' FROM payment_refunds r ${order("r")}
       WHERE r.tenant_id = ANY(${scope}) AND r.payment_txn = ${term}
       UNION ALL
       SELECT o.*, 'store' FROM store_purchases s ${order("s")}
       WHERE s.tenant_id = ANY(${scope}) AND s.store IN (${STORE_NAMES}) AND s.transaction_id = ${term}
       UNION ALL
       SELECT o.*, 'store' FROM store_purchases s ${order("s")}
       WHERE s.tenant_id = ANY(${scope}) AND s.store IN (${STORE_NAMES}) AND s.original_transaction_id = ${term}
       UNION ALL
       SELECT o.*, 'grant' FROM grants g ${order("g")}
       WHERE g.tenant_id = ANY(${scope}) AND g.grant_id = ${term}`;
}

export interface Pair {
  readonly tenantId: string;
  readonly state: OrderState;
  /** Set when filtering stuck orders: the pair's threshold. */
  readonly dwell: number | null;
}

/** Builds a statement's text and positional parameters together, so they cannot drift apart. */
export class Params {
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

const rawRow = z.object({
  id: z.number(),
  tenantId: z.string(),
  orderNo: z.string(),
  playerId: z.string(),
  amount: z.number(),
  currency: z.string(),
  state: z.enum(ORDER_STATES),
  stateAt: z.coerce.date(),
  createdAt: z.coerce.date(),
  secondsInState: z.number(),
  createdKey: z.string(),
  /** Only a search term's rows have it. */
  matchedBy: z.array(z.enum(MATCH_KINDS)).nullish(),
});
export type RawRow = z.output<typeof rawRow>;

export interface Filter {
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

export type Direction = "older" | "newer";

function orderBy(createdAt: string, direction: Direction): string {
  const dir = direction === "older" ? "DESC" : "ASC";
  return `${createdAt} ${dir}, o.id ${dir}`;
}

export async function browse(filter: Filter, cursor: OrderCursor | undefined, direction: Direction, limit: number): Promise<RawRow[]> {
  const params = new Params();
  const pairs = pairsRelation(filter, params);
  const where = conditions(filter, params) + keyset("o.created_at", cursor, direction, params);
  const n = params.add(limit + 1, "int");
  return rows(
    getPool(),
    rawRow,
    `SELECT o.* FROM ${pairs}
     CROSS JOIN LATERAL (
       SELECT ${ROW_COLUMNS} FROM orders o
       WHERE o.tenant_id = p.tenant_id AND o.state = p.state${where}
       ORDER BY ${orderBy("o.created_at", direction)} LIMIT ${n}
     ) o
     ORDER BY ${orderBy(`o."createdAt"`, direction)} LIMIT ${n}`,
    params.values,
  );
}

/**
 * Exact up to `countLimit` (each pair's scan stops there too, so a count never reads more than that
 * many index entries); past it, the planner's estimate for the same conditions.
 */
export async function countBrowse(filter: Filter, countLimit: number): Promise<OrderTotal> {
  const params = new Params();
  const pairs = pairsRelation(filter, params);
  const where = conditions(filter, params);
  const cap = params.add(countLimit + 1, "int");
  // The ORDER BY is there for the planner, not the count: the pair is a parameter, so it cannot
  // see that a small state is small, and with a bare LIMIT it bets on a sequential scan finding
  // enough rows early (measured: 1.5 s at 1,000,000 orders). Asking for index order keeps it on
  // the range scan: the state_at index for stuck, the page's own order otherwise.
  const order = filter.stuck ? `o.state_at` : orderBy("o.created_at", "older");
  const { n } = await one(
    getPool(),
    countRow,
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM ${pairs}
       CROSS JOIN LATERAL (
         SELECT 1 FROM orders o WHERE o.tenant_id = p.tenant_id AND o.state = p.state${where} ORDER BY ${order} LIMIT ${cap}
       ) o
       LIMIT ${cap}
     ) c`,
    params.values,
  );
  if (n <= countLimit) return { kind: "exact", value: n };
  const planned = await estimate(filter);
  return planned > countLimit ? { kind: "estimate", value: planned } : { kind: "more-than", value: countLimit };
}

const countRow = z.object({ n: z.number() });

const planRow = z.object({ "QUERY PLAN": z.tuple([z.object({ Plan: z.object({ "Plan Rows": z.number() }) })]) });

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
  const plan = await one(
    getPool(),
    planRow,
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM orders o WHERE (${perPair.join(" OR ")})${range}`,
    params.values,
  );
  const planned = plan["QUERY PLAN"][0].Plan["Plan Rows"];
  // Two significant figures: it is an estimate, and should not look like a count.
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(planned, 1))) - 1);
  return Math.round(planned / magnitude) * magnitude;
}

/** A hit with the number of hits; or, when the page is empty, the number alone (the LEFT JOIN's all-null row). */
const termRow = z.union([rawRow.extend({ total: z.number() }), z.object({ total: z.number(), id: z.null() })]);

/**
 * One search term, tried as every kind of termHits() (nothing is guessed from its shape: an order no, a
 * player id and a transaction id can look alike). The hits are few, so filtering, counting and
 * paging them after the lookups is cheap; the total comes back on every row (and on a lone
 * all-null row when the page is empty).
 */
export async function searchByTerm(
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
  const found = await rows(
    getPool(),
    termRow,
    // Each lookup returns the order rows themselves, so the few hits are filtered as they are: the
    // filters never get a chance to drive the plan into a scan of a whole (tenant, state) range.
    `WITH hit AS (${termHits(scope, term)}
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
  return {
    raw: found.flatMap((r) => ("orderNo" in r ? [r] : [])),
    total: { kind: "exact", value: found[0]?.total ?? 0 },
  };
}
