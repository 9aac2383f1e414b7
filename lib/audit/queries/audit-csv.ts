import "server-only";
import { EXPORT_PAGE_SIZE, pagedCsvStream, type Cell } from "@/lib/csv";
import type { Logger } from "@/lib/log";
import { assertNever } from "@/lib/orders/machine";
import type { AuditRow } from "./audit-row";
import { listAuditRows } from "./audit-rows";
import type { AuditFilters } from "./filters";
import type { AuditCursor } from "./cursor";

export const AUDIT_CSV_HEADER = [
  "at_utc",
  "kind",
  "tenant",
  "order_no",
  "event_or_action",
  "from_state",
  "to_state",
  "actor",
  "source",
  "biz_key",
  "reason",
  "target",
  "detail",
  "sku",
  "quantity",
  "grant_id",
  "note",
  "corrects_note",
] as const;

/** One row's cells, in AUDIT_CSV_HEADER's order: every log fills the columns it has. */
export function auditCsvCells(row: AuditRow): Cell[] {
  const none = [null, null, null, null, null] as const;
  switch (row.log) {
    case "transition":
      return [row.at, row.kind, row.tenantId, row.orderNo, row.event, row.from, row.to, row.actor, row.source, row.bizKey, row.reason, null, null, ...none];
    case "grant":
      return [
        row.at,
        row.kind,
        row.tenantId,
        row.orderNo,
        row.quantity < 0 ? "reversal" : "grant",
        null,
        null,
        row.actor,
        row.source,
        null,
        row.reason,
        null,
        null,
        row.sku,
        row.quantity,
        row.grantId,
        null,
        null,
      ];
    case "note":
      // The target names the note, so a correction's corrects_note can be followed in the file.
      return [row.at, row.kind, row.tenantId, row.orderNo, "note", null, null, row.actor, null, null, null, `note:${row.id}`, null, null, null, null, row.body, row.correctsId === null ? null : `note:${row.correctsId}`];
    case "action":
      return [row.at, row.kind ?? "action", row.tenantId, row.orderNo, row.action, null, null, row.actor, null, null, row.reason, row.target, JSON.stringify(row.detail), ...none];
    default:
      return assertNever(row);
  }
}

/** The filtered audit rows as a CSV byte stream, a keyset page at a time (lib/csv.ts). */
export function auditCsvStream(options: {
  readonly scope: readonly string[];
  readonly filters: AuditFilters;
  readonly pageSize?: number;
  readonly log: Logger;
}): ReadableStream<Uint8Array> {
  const limit = options.pageSize ?? EXPORT_PAGE_SIZE;
  return pagedCsvStream({
    header: AUDIT_CSV_HEADER,
    readPage: async (after: AuditCursor | undefined) => {
      const page = await listAuditRows({ scope: options.scope, filters: options.filters, position: after ? { after } : {}, limit });
      // A note search stopped by its time bound: fail the download rather than end it short.
      if (page.timedOut) throw new Error("audit export: the note search took too long");
      return page;
    },
    cells: auditCsvCells,
    what: "audit export",
    log: options.log,
  });
}
