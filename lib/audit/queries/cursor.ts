// Keyset page positions for the audit explorer. Pure.
//
// The explorer merges two logs with separate id sequences (order_transitions, audit_events), so a
// position is (created_at, log, id): rows are ordered newest first by created_at, then transitions
// before staff actions at the same microsecond, then by id. created_at keeps its full microsecond
// precision as text — a JavaScript Date would round it to milliseconds and skip or repeat rows.

import type { AuditKind } from "./filters";

export interface AuditCursor {
  /** ISO 8601 UTC with microseconds, exactly as PostgreSQL stored it. */
  readonly at: string;
  readonly kind: AuditKind;
  readonly id: number;
}

const LETTER: Readonly<Record<AuditKind, string>> = { transition: "t", staff: "s" };
const PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([ts])([1-9]\d{0,17})$/;

/** "2026-12-02T09:41:03.541671Z_t123": readable in a URL, and safe in one (no reserved characters but ':'). */
export function encodeCursor(cursor: AuditCursor): string {
  return `${cursor.at}_${LETTER[cursor.kind]}${cursor.id}`;
}

export function decodeCursor(text: string): AuditCursor | null {
  const match = PATTERN.exec(text);
  if (!match) return null;
  const id = Number(match[3]);
  if (!Number.isSafeInteger(id) || Number.isNaN(Date.parse(match[1]!))) return null;
  return { at: match[1]!, kind: match[2] === "t" ? "transition" : "staff", id };
}

/** Sort rank of a log at equal created_at: higher comes first (newest-first order). */
export const KIND_RANK = { transition: 1, staff: 0 } as const satisfies Readonly<Record<AuditKind, number>>;

const MAX_ID = "9223372036854775807";

/**
 * The id bound for one log so that `(created_at, id) < (cursor.at, bound)` (older pages) or
 * `> (cursor.at, bound)` (newer pages) on that log alone is exactly "past the cursor" in the merged
 * order — one row comparison, which PostgreSQL turns into an index range on (created_at, id).
 *
 * Older pages, i.e. (at, rank, id) < cursor: for the cursor's own log, id < cursor.id; for a log
 * ranked below it, every row at the same instant is past the cursor (id < MAX); for a log ranked
 * above it, none is (id < 0). Newer pages mirror it.
 */
export function idBound(cursor: AuditCursor, kind: AuditKind): string {
  if (kind === cursor.kind) return String(cursor.id);
  return KIND_RANK[kind] < KIND_RANK[cursor.kind] ? MAX_ID : "0";
}
