import "server-only";
import { EXPORT_PAGE_SIZE } from "@/lib/audit/queries/filters";
import { csvLine, type Cell } from "@/lib/csv";
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
 * The filtered orders list as a CSV byte stream, newest first, read one keyset page at a time as
 * the client takes them (pull) — the audit export's shape (lib/audit/queries/audit-csv.ts): at most
 * one page in memory, each page its own short query, so a slow download holds no connection open.
 * Orders created after the export started are newer than its first page and so not in it; an order
 * that changes state mid-way is written as it was when its page was read. A failure mid-way errors
 * the stream: the download fails visibly rather than ending short.
 */
export function ordersCsvStream(options: {
  readonly search: Omit<OrderSearch, "after" | "before" | "limit">;
  readonly pageSize?: number;
  readonly log: Logger;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
  let after: OrderCursor | undefined;
  let started = false;
  let rows = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // The byte-order mark makes spreadsheet apps read the file as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(ORDERS_CSV_HEADER)}`));
          return;
        }
        try {
          const page = await readOrdersPage({ ...options.search, limit: pageSize, ...(after ? { after } : {}) });
          if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map((r) => csvLine(ordersCsvCells(r))).join("")));
          rows += page.rows.length;
          if (page.older) after = page.older;
          else {
            options.log.info({ rows }, "orders export finished");
            controller.close();
          }
        } catch (error) {
          options.log.error({ err: error, rows }, "orders export failed mid-stream");
          controller.error(error);
        }
      },
      cancel() {
        options.log.info({ rows }, "orders export cancelled by the client");
      },
    },
    // Read ahead by one page at most.
    { highWaterMark: 1 },
  );
}
