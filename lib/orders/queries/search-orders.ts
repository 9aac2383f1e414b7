import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { one } from "@/lib/db/sql";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import { dwellThresholds, isStuck } from "@/lib/orders/stuck";
import type { OrderSnapshot } from "@/lib/orders/types";
import { browse, countBrowse, searchByTerm, type Filter, type Pair, type RawRow } from "./search-orders-statements";

// The orders page: find orders by any id the console shows (order no in any letter case, player
// id, each payment's transaction id, refund ids and receipts, channel references, store transaction
// and order ids, grant ids, a case's key), or browse them by product, state, created date and "stuck".
//
// Every statement (search-orders-statements.ts) is a set of index range scans, never a scan of the table:
// - a search term is tried as every kind at once, each an equality lookup on its own index leading
//   with tenant_id (termHits lists them); the few hits are then filtered;
// - browsing walks one (tenant, state) range at a time — a LATERAL subquery per pair, each reading
//   at most one page in index order — and merges them. With no state filter that is 7 short scans
//   per product rather than one scan over every state.
// Order: newest first by (created_at, id); the keyset cursor is that pair.

/** Rows per page unless the caller asks otherwise. */
export const PAGE_SIZE = 50;
/** Totals are exact up to here; past it the planner's estimate is shown, labelled as such. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * How a term matched. `payment`: a payment's transaction id (the accepted pay, a payment the ledger
 * could not apply and its case, the payment a channel refund refunds); `refund`: a refund's id (ours,
 * sent to the channel, or request-refund's key); `receipt`: the channel's or store's receipt for a
 * refund (confirm-, reject-, reverse-refund's key, a channel refund's reference); `store`: an App
 * Store transaction id or original transaction id, a Google Play order id or purchase token;
 * `grant`: a grant id; `case`: another case's key.
 */
export type MatchKind = "orderNo" | "player" | "payment" | "refund" | "receipt" | "store" | "grant" | "case";

export interface OrderCursor {
  /** created_at in UTC with microseconds: a JavaScript Date would round it, and skip or repeat rows. */
  readonly createdAt: string;
  readonly id: number;
}

export interface OrderSearch {
  /** The tenants the caller may see (staff.tenantIds). Nothing outside them is ever read. */
  readonly scope: readonly string[];
  /** Exactly an id the console shows (an order no in any letter case): see MatchKind. */
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
  return getPrisma().tenant.findMany({ where: { id: { in: [...scope] } }, select: { id: true, name: true }, orderBy: { id: "asc" } });
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

export async function searchOrders(search: OrderSearch): Promise<OrderSearchResult> {
  return run(search, true);
}

/**
 * A page without the total, for readers that walk every page (the CSV export): browsing skips the
 * count, which on each page would read up to EXACT_COUNT_LIMIT index entries again.
 */
export async function readOrdersPage(search: OrderSearch): Promise<Omit<OrderSearchResult, "total">> {
  const { total: _total, ...page } = await run(search, false);
  return page;
}

async function run(search: OrderSearch, withTotal: boolean): Promise<OrderSearchResult> {
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
    [raw, total] = await Promise.all([
      browse(filter, cursor, direction, limit),
      withTotal ? countBrowse(filter, countLimit) : Promise.resolve<OrderTotal>({ kind: "more-than", value: 0 }),
    ]);
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
    stuck: isStuck(r.secondsInState, dwell),
    matchedBy: r.matchedBy ?? [],
    cursor: { createdAt: r.createdKey, id: r.id },
  };
}

const preludeRow = z.object({
  thresholds: z.record(z.string(), dwellThresholds),
  fromAt: z.coerce.date().nullable(),
  toAt: z.coerce.date().nullable(),
});

/** Thresholds of the tenants in play and the created range as instants, in one round trip. */
async function prelude(tenants: readonly string[], search: OrderSearch): Promise<z.output<typeof preludeRow>> {
  return one(
    getPool(),
    preludeRow,
    `SELECT (SELECT coalesce(jsonb_object_agg(tenant_id, max_dwell_seconds), '{}') FROM tenant_settings WHERE tenant_id = ANY($1)) AS thresholds,
            $2::date::timestamp AT TIME ZONE $4::text AS "fromAt",
            ($3::date + 1)::timestamp AT TIME ZONE $4::text AS "toAt"`,
    [tenants, search.createdFrom ?? null, search.createdTo ?? null, search.timeZone ?? "UTC"],
  );
}
