// Keyset page positions for the audit explorer and the security log. Pure.
//
// The explorer merges four logs with separate id sequences (order_transitions, grants, order_notes,
// audit_events), so a position is (created_at, log, id): rows are ordered newest first by
// created_at, then by the log's rank at the same microsecond (LOG_RANK), then by id. created_at
// keeps its full microsecond precision as text — a JavaScript Date would round it to milliseconds
// and skip or repeat rows.

import type { AuditLog } from "./kinds";

export interface AuditCursor {
  /** ISO 8601 UTC with microseconds, exactly as PostgreSQL stored it. */
  readonly at: string;
  readonly log: AuditLog;
  readonly id: number;
}

const LETTER: Readonly<Record<AuditLog, string>> = { transition: "t", grant: "g", note: "n", action: "a" };
const LOG_OF: Readonly<Record<string, AuditLog>> = { t: "transition", g: "grant", n: "note", a: "action" };
const PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([tgna])([1-9]\d{0,17})$/;

/** "2026-12-02T09:41:03.541671Z_t123": readable in a URL, and safe in one (no reserved characters but ':'). */
export function encodeCursor(cursor: AuditCursor): string {
  return `${cursor.at}_${LETTER[cursor.log]}${cursor.id}`;
}

export function decodeCursor(text: string): AuditCursor | null {
  const match = PATTERN.exec(text);
  if (!match) return null;
  const id = Number(match[3]);
  if (!Number.isSafeInteger(id) || Number.isNaN(Date.parse(match[1]!))) return null;
  return { at: match[1]!, log: LOG_OF[match[2]!]!, id };
}

/**
 * Sort rank of a log at equal created_at: higher comes first (newest-first order). A transition and
 * the grants it writes (a refund's reversals) share their transaction's timestamp; the transition
 * ranks above them here only so the order is total — the explorer reads it as one instant.
 */
export const LOG_RANK = { transition: 3, grant: 2, note: 1, action: 0 } as const satisfies Readonly<Record<AuditLog, number>>;

const MAX_ID = "9223372036854775807";

/**
 * The id bound for one log so that `(created_at, id) < (cursor.at, bound)` (older pages) or
 * `> (cursor.at, bound)` (newer pages) on that log alone is exactly "past the cursor" in the merged
 * order — one row comparison, which PostgreSQL turns into an index range on (created_at, id).
 *
 * Older pages, i.e. (at, rank, id) < cursor: for the cursor's own log, id < cursor.id; for a log
 * ranked below it, every row at the same instant is past the cursor (id < MAX); for a log ranked
 * above it, none is (id < 0). Newer pages, `> (cursor.at, bound)`, come out the same: a log ranked
 * above the cursor's has every row at that instant past it (id > 0), one ranked below none (id > MAX).
 */
export function idBound(cursor: AuditCursor, log: AuditLog): string {
  if (log === cursor.log) return String(cursor.id);
  return LOG_RANK[log] < LOG_RANK[cursor.log] ? MAX_ID : "0";
}
