import "server-only";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { auditRaw, positionOf, toRow, type AuditRaw, type AuditRow } from "./audit-row";
import type { AuditCursor } from "./cursor";
import type { AuditPosition } from "./filters";
import type { Direction } from "./log-streams";

export interface AuditPage {
  readonly rows: readonly AuditRow[];
  /** Position for the next (older) page; null on the last page. */
  readonly older: AuditCursor | null;
  /** Position for the previous (newer) page; null on the first page. */
  readonly newer: AuditCursor | null;
  /** The read was stopped by its time bound (a search checked on every row): narrow it and ask again. */
  readonly timedOut: boolean;
}

export interface PageQuery {
  readonly text: string;
  readonly values: unknown[];
  readonly direction: Direction;
  /**
   * A statement timeout, for reads whose filters are checked row by row rather than by an index
   * (note text, a person or an address in the security log): without it a search that matches
   * little would walk a whole history while holding a connection.
   */
  readonly timeout?: string;
}

export const EMPTY_PAGE: AuditPage = { rows: [], older: null, newer: null, timedOut: false };

async function read(query: PageQuery): Promise<AuditRaw[] | "timed-out"> {
  // The plain pool when no bound is needed: the statement the EXPLAIN tests capture.
  if (!query.timeout) return rows(getPool(), auditRaw, query.text, query.values);
  try {
    // A transaction only so that SET LOCAL bounds this one statement: the connection goes back to
    // the pool without the timeout.
    return await transaction(({ client }) => rows(client, auditRaw, query.text, query.values), {
      setLocal: [`SET LOCAL statement_timeout = '${query.timeout}'`],
    });
  } catch (error) {
    // 57014: query_canceled — here, only the statement timeout above.
    if ((error as { code?: string }).code === "57014") return "timed-out";
    throw error;
  }
}

/** Runs one page query (log-streams.ts) and works out the positions of the pages around it. */
export async function readPage(query: PageQuery, limit: number, position: AuditPosition): Promise<AuditPage> {
  const raw = await read(query);
  if (raw === "timed-out") return { ...EMPTY_PAGE, timedOut: true };
  const more = raw.length > limit;
  const page = raw.slice(0, limit).map(toRow);
  if (query.direction === "newer") {
    // Read oldest-first from the cursor up; shown newest-first. The cursor row itself is older.
    page.reverse();
    return {
      rows: page,
      newer: more && page[0] ? positionOf(page[0]) : null,
      older: page.length > 0 ? positionOf(page[page.length - 1]!) : "before" in position ? position.before : null,
      timedOut: false,
    };
  }
  return {
    rows: page,
    older: more && page.length > 0 ? positionOf(page[page.length - 1]!) : null,
    // Came from a position: the rows before it are newer.
    newer: "after" in position && page[0] ? positionOf(page[0]) : "after" in position ? position.after : null,
    timedOut: false,
  };
}

/** Which way a position reads, and from where. */
export function directionOf(position: AuditPosition): { direction: Direction; cursor: AuditCursor | undefined } {
  if ("before" in position) return { direction: "newer", cursor: position.before };
  if ("after" in position) return { direction: "older", cursor: position.after };
  return { direction: "older", cursor: undefined };
}
