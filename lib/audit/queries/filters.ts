// What the audit explorer can be asked: the filters, shared by the page (search params) and the
// CSV export route (query string), so an export is exactly the slice the manager is looking at.
// Pure: no I/O.
import { z } from "zod";
import { EXPORT_PAGE_SIZE } from "@/lib/csv";
import { isOrderEvent, SOURCES } from "@/lib/orders/machine";
import type { FieldProblem } from "@/lib/problems";
import { because, hasNul, problemOfIssue } from "@/lib/validation";
import { decodeCursor, type AuditCursor } from "./cursor";
import { MAX_NOTE_SEARCH, REASON_FILTERS, SUMMARY_DEFAULT_DAYS, SUMMARY_MAX_DAYS } from "./filter-options";
import { AUDIT_KINDS, isActionKind, type AuditLog } from "./kinds";

/** Rows per page on screen; the export reads pages of EXPORT_PAGE_SIZE (lib/csv.ts). */
export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = EXPORT_PAGE_SIZE;

/** "" from an empty form field means "no filter", not "match the empty string". */
export const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
export const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blank, schema.optional());

const TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A point in time. Without a zone it is read as UTC — the form says so — because the server does
 * not know the viewer's zone and must not guess.
 */
export const instant = z
  .string()
  .trim()
  .regex(TIME, because({ kind: "invalid-date" }))
  .transform((text, ctx) => {
    const normalized = text.replace(" ", "T");
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(normalized);
    const withTime = normalized.includes("T") ? normalized : `${normalized}T00:00`;
    const date = new Date(hasZone ? withTime : `${withTime}Z`);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", ...because({ kind: "invalid-date" }) });
      return z.NEVER;
    }
    return date;
  });

export const cursor = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const decoded = decodeCursor(text);
    if (!decoded) {
      ctx.addIssue({ code: "custom", ...because({ kind: "page-position-unknown" }) });
      return z.NEVER;
    }
    return decoded;
  });

/** The one rule across fields; the page checks it on the fields it read one by one. */
export function rangeReversed(v: { readonly from?: Date; readonly to?: Date }): boolean {
  return v.from !== undefined && v.to !== undefined && v.from >= v.to;
}

/** The query string of the explorer and of the export. Every field is optional: `{}` is "everything in scope". */
export const auditFilterInput = z
  .object({
    actor: optional(z.string().trim().max(200)),
    // Any action name is accepted (rows written by older versions keep theirs): only its shape is checked.
    event: optional(z.string().trim().regex(/^[a-z][a-z0-9.-]{0,63}$/)),
    source: optional(z.enum(SOURCES)),
    tenant: optional(z.string().trim().regex(/^[a-z][a-z0-9-]{1,31}$/)),
    from: optional(instant),
    to: optional(instant),
    reason: optional(z.enum(REASON_FILTERS)),
    kind: optional(z.enum(AUDIT_KINDS)),
    // An order number of a product in scope (the same number in two products matches both).
    order: optional(z.string().trim().max(64)),
    // Note text: a case-insensitive substring of internal notes' bodies.
    text: optional(z.string().trim().max(MAX_NOTE_SEARCH)),
    after: optional(cursor),
    before: optional(cursor),
  })
  .refine((v) => !rangeReversed(v), { path: ["to"], ...because({ kind: "date-range-reversed" }) });

export type AuditFilterInput = z.output<typeof auditFilterInput>;

/** The filters without the page position. */
export type AuditFilters = Omit<AuditFilterInput, "after" | "before">;

export type AuditPosition = { readonly after: AuditCursor } | { readonly before: AuditCursor } | Record<string, never>;

type FieldName = keyof z.input<typeof auditFilterInput>;
const FIELDS = Object.keys(auditFilterInput.shape) as FieldName[];

/** A page's search params read field by field, with what was dropped and why. */
export interface ParsedSearch<Field extends string, Filters> {
  readonly filters: Filters;
  readonly position: AuditPosition;
  /** Fields that were given but not understood: left out, and said so on the page (in its language). */
  readonly invalid: readonly { readonly field: Field; readonly problem: FieldProblem }[];
  /** The understood fields as text, to refill the form and build links. */
  readonly raw: Readonly<Partial<Record<Field, string>>>;
}

export type ParsedAuditSearch = ParsedSearch<FieldName, AuditFilters>;

type SearchShape = Readonly<Record<string, z.ZodType>> & { readonly after: z.ZodType; readonly before: z.ZodType; readonly to: z.ZodType };

/**
 * A page's reading of its search params (the explorer's, the security log's): field by field, so
 * one bad field (a hand-edited URL) drops that filter with a message instead of the whole page failing.
 */
export function parseSearch<S extends SearchShape, Filters>(
  shape: S,
  params: Readonly<Record<string, string | string[] | undefined>>,
): ParsedSearch<keyof S & string, Filters> {
  const { values, raw, invalid } = readSearchFields<keyof S & string>(shape, (field) => {
    const given = params[field];
    return Array.isArray(given) ? given[0] : given;
  });
  const { after, before, ...filters } = values as { after?: AuditCursor; before?: AuditCursor };
  const position: AuditPosition = after ? { after } : before ? { before } : {};
  return { filters: filters as Filters, position, invalid, raw };
}

/**
 * The fields of a page's query string read one by one against `shape` (the explorer's, the security
 * log's, the deliveries page's): the parsed values, each understood field's text (to refill the form
 * and build links), and each refused field with its problem. A `to` before `from` is refused too.
 */
export function readSearchFields<Field extends string>(
  shape: Readonly<Record<Field, z.ZodType>>,
  param: (field: Field) => string | undefined,
): { values: Record<string, unknown>; raw: Partial<Record<Field, string>>; invalid: { field: Field; problem: FieldProblem }[] } {
  const values: Record<string, unknown> = {};
  const raw: Partial<Record<Field, string>> = {};
  const invalid: { field: Field; problem: FieldProblem }[] = [];
  for (const field of Object.keys(shape) as Field[]) {
    const text = param(field);
    if (text === undefined) continue;
    // Refused here, once, rather than by each schema: PostgreSQL cannot compare text holding a NUL.
    if (hasNul(text)) {
      invalid.push({ field, problem: { kind: "control-characters" } });
      continue;
    }
    const parsed = shape[field]!.safeParse(text);
    if (parsed.success) {
      if (parsed.data !== undefined) {
        values[field] = parsed.data;
        raw[field] = text.trim();
      }
    } else {
      const issue = parsed.error.issues[0];
      invalid.push({ field, problem: issue ? problemOfIssue(issue) : { kind: "invalid" } });
    }
  }
  // Checked on the parsed values, not by parsing them again: the schema reads text, and `from`, `to`
  // and the cursors are Dates and objects by now. Keep the start, drop the end.
  if (rangeReversed(values as { from?: Date; to?: Date })) {
    invalid.push({ field: "to" as Field, problem: { kind: "date-range-reversed" } });
    delete values.to;
    delete raw["to" as Field];
  }
  return { values, raw, invalid };
}

export function parseAuditSearch(params: Readonly<Record<string, string | string[] | undefined>>): ParsedAuditSearch {
  return parseSearch<typeof auditFilterInput.shape, AuditFilters>(auditFilterInput.shape, params);
}

/**
 * Which logs a filter set can match at all. Each filter belongs to the logs that have its column:
 * a source to transitions and grants, an order event to transitions, an action name to
 * audit_events, note text to notes. A reason filter leaves notes out: a note is not a change that
 * needs a reason, it is the text itself.
 */
export function streamsFor(filters: AuditFilters): Readonly<Record<AuditLog, boolean>> {
  const { event, kind } = filters;
  const text = filters.text !== undefined;
  return {
    transition: !text && (kind === undefined || kind === "transition") && (event === undefined || isOrderEvent(event)),
    grant: !text && (kind === undefined || kind === "grant") && event === undefined,
    note: (kind === undefined || kind === "note") && event === undefined && filters.source === undefined && filters.reason === undefined,
    action:
      !text &&
      (kind === undefined || isActionKind(kind)) &&
      filters.source === undefined &&
      (event === undefined || !isOrderEvent(event)),
  };
}

/** The tenants a query may read: the caller's scope, narrowed by the tenant filter (outside the scope: none). */
export function tenantsToRead(scope: readonly string[], tenant: string | undefined): string[] {
  if (tenant === undefined) return [...scope];
  return scope.includes(tenant) ? [tenant] : [];
}

/** The per-actor summary's range: the filtered range, or its last SUMMARY_DEFAULT_DAYS, capped at SUMMARY_MAX_DAYS. */
export function summaryRange(filters: Pick<AuditFilters, "from" | "to">, now: Date): { from: Date; to: Date; clipped: boolean } {
  const day = 86_400_000;
  const to = filters.to && filters.to < now ? filters.to : now;
  const earliest = new Date(to.getTime() - SUMMARY_MAX_DAYS * day);
  const wanted = filters.from ?? new Date(to.getTime() - SUMMARY_DEFAULT_DAYS * day);
  return wanted < earliest ? { from: earliest, to, clipped: true } : { from: wanted, to, clipped: false };
}

/** Filters as query-string pairs (for links: pages, export), without empty ones and without the page position. */
export function searchQuery(raw: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> = {}): string {
  const params = new URLSearchParams();
  for (const [field, value] of Object.entries(raw)) {
    if (field === "after" || field === "before") continue;
    if (value) params.set(field, value);
  }
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The explorer's filters as a query string, in the form's field order. */
export function filterQuery(raw: ParsedAuditSearch["raw"], extra: Readonly<Record<string, string>> = {}): string {
  return searchQuery(Object.fromEntries(FIELDS.map((f) => [f, raw[f]])), extra);
}
