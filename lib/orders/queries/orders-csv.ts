import "server-only";
import { EXPORT_PAGE_SIZE, pagedCsvStream, type Cell } from "@/lib/csv";
import type { Logger } from "@/lib/log";
import { readOrdersPage, type OrderCursor, type OrderListRow, type OrderSearch } from "./search-orders";

export const ORDERS_CSV_HEADER = [
  "tenant",
  "order_no",
  "player_id",
  "amount_minor",
  "currency",
  "state",
  "state_at_utc",
  "seconds_in_state",
  "stuck",
  "max_dwell_seconds",
  "created_at_utc",
  "matched_by",
] as const;

/** One order's cells, in ORDERS_CSV_HEADER's order. Money stays integer minor units, as stored. */
export function ordersCsvCells(row: OrderListRow): Cell[] {
  return [
    row.tenantId,
    row.orderNo,
    row.playerId,
    row.amount,
    row.currency,
    row.state,
    row.stateAt.toISOString(),
    row.secondsInState,
    row.stuck,
    row.maxDwellSeconds,
    row.cursor.createdAt,
    row.matchedBy.join(" "),
  ];
}

/**
 * The filtered orders list as a CSV byte stream, newest first, a keyset page at a time (the audit
 * export's shape, lib/csv.ts). An order that changes state mid-way is written as it was when its
 * page was read.
 */
export function ordersCsvStream(options: {
  readonly search: Omit<OrderSearch, "after" | "before" | "limit">;
  readonly pageSize?: number;
  readonly log: Logger;
}): ReadableStream<Uint8Array> {
  const limit = options.pageSize ?? EXPORT_PAGE_SIZE;
  return pagedCsvStream({
    header: ORDERS_CSV_HEADER,
    readPage: (after: OrderCursor | undefined) => readOrdersPage({ ...options.search, limit, ...(after ? { after } : {}) }),
    cells: ordersCsvCells,
    what: "orders export",
    log: options.log,
  });
}
