// The orders page's reading of its URL: field by field, so one bad value (a hand-edited link, a
// bookmark from another machine) drops that filter with a note instead of failing the page. Pure.
import { z } from "zod";
import type { FieldProblem } from "@/lib/problems";
import { hasNul, problemOfIssue } from "@/lib/validation";
import { ORDER_STATES } from "./machine";

/** An empty form field ("any state") is no filter. */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const day = z.preprocess(
  blank,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    // 2026-13-45 has the shape of a day but is none: an invalid Date, whose toISOString() throws.
    .refine((v) => {
      const date = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
    })
    .optional(),
);

const FIELDS = {
  q: z.preprocess(blank, z.string().trim().max(200).optional()),
  tenant: z.preprocess(blank, z.string().max(64).optional()),
  state: z.preprocess(blank, z.enum(ORDER_STATES).optional()),
  from: day,
  to: day,
  tz: z.preprocess(blank, z.string().max(64).optional()),
  stuck: z.preprocess(blank, z.literal("1").optional()),
} as const;

export type OrderSearchField = keyof typeof FIELDS;
type Values = { [K in OrderSearchField]?: z.output<(typeof FIELDS)[K]> };

export interface ParsedOrderSearch {
  /** The understood filters; `tz` is always a zone the database knows ("UTC" when none was). */
  readonly values: Values & { readonly tz: string };
  /** Fields that were given but not understood: ignored, and said so on the page. */
  readonly invalid: Readonly<Partial<Record<OrderSearchField, FieldProblem>>>;
  /** A time zone that was asked for but is not one: the days are read in UTC instead. */
  readonly unknownZone: string | null;
}

type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function parseOrderSearch(params: SearchParams): ParsedOrderSearch {
  const values: Record<string, unknown> = {};
  const invalid: Partial<Record<OrderSearchField, FieldProblem>> = {};
  for (const field of Object.keys(FIELDS) as OrderSearchField[]) {
    const text = first(params[field]);
    // Refused here, once, rather than by each schema: PostgreSQL cannot compare text holding a NUL.
    if (text !== undefined && hasNul(text)) {
      invalid[field] = { kind: "control-characters" };
      continue;
    }
    const result = FIELDS[field].safeParse(text);
    if (result.success) values[field] = result.data;
    else invalid[field] = problemOfIssue(result.error.issues[0]!);
  }
  // An unknown zone is no reason to refuse the page: the days are read in UTC, and the page says so.
  const asked = first(params.tz);
  const zone = typeof values.tz === "string" ? knownTimeZone(values.tz) : null;
  const unknownZone = asked !== undefined && asked.trim() !== "" && zone === null ? asked.replaceAll("\u0000", "\ufffd").slice(0, 64) : null;
  delete invalid.tz;
  return { values: { ...(values as Values), tz: zone ?? "UTC" }, invalid, unknownZone };
}

// The zones every IANA name resolves to, as this runtime's ICU names them. The database reads the
// zone too (created-at days are cut in it), and it does not know every alias ICU still accepts:
// `US/Pacific-New` left the tz database in 2020, ICU maps it to Los Angeles, PostgreSQL refuses it.
// So a zone is handed on by its canonical name only.
const CANONICAL = new Set(Intl.supportedValuesOf("timeZone"));

/** The canonical name of an IANA time zone, or null when it is not one. */
export function knownTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return canonical === "UTC" || canonical.startsWith("Etc/") || CANONICAL.has(canonical) ? canonical : null;
}
