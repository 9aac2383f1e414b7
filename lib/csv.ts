// CSV that spreadsheets open safely, and streamed a keyset page at a time.
import type { Logger } from "@/lib/log";

export type Cell = string | number | boolean | null | undefined;

/**
 * Quotes a cell when it must be (comma, quote, newline), and defuses formula injection: a text cell
 * starting with = + - @ (or a tab/CR) gets a leading apostrophe, so Excel shows it instead of running it.
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return csvLine(header) + rows.map(csvLine).join("");
}

/** Rows per page of an export (pagedCsvStream): the audit and the orders exports read pages this big. */
export const EXPORT_PAGE_SIZE = 5_000;

/** One page of a keyset-paged read: its rows, and the cursor of the next (older) page if any. */
export interface CsvPage<Row, Cursor> {
  readonly rows: readonly Row[];
  readonly older: Cursor | null | undefined;
}

/**
 * A CSV byte stream read one keyset page at a time as the client takes them (pull): at most one
 * page is in memory, however large the export, and each page is its own short query, so a slow
 * download never holds a connection or a transaction open. Rows written after the export started
 * are newer than its first page and so not in it. A failure mid-way errors the stream: the download
 * fails visibly rather than ending short. `what` names the export in the log ("audit export").
 */
export function pagedCsvStream<Row, Cursor>(options: {
  readonly header: readonly string[];
  readonly readPage: (after: Cursor | undefined) => Promise<CsvPage<Row, Cursor>>;
  readonly cells: (row: Row) => readonly Cell[];
  readonly what: string;
  readonly log: Logger;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Cursor | undefined;
  let started = false;
  let rows = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // The byte-order mark makes spreadsheet apps read the file as UTF-8 (reasons are often Chinese).
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(options.header)}`));
          return;
        }
        try {
          const page = await options.readPage(after);
          if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map((r) => csvLine(options.cells(r))).join("")));
          rows += page.rows.length;
          if (page.older) after = page.older;
          else {
            options.log.info({ rows }, `${options.what} finished`);
            controller.close();
          }
        } catch (error) {
          options.log.error({ err: error, rows }, `${options.what} failed mid-stream`);
          controller.error(error);
        }
      },
      cancel() {
        options.log.info({ rows }, `${options.what} cancelled by the client`);
      },
    },
    // Read ahead by one page at most.
    { highWaterMark: 1 },
  );
}
