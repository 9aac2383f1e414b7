// Zod issues as field problems (lib/problems.ts), so validation messages come from the message
// catalogue in the reader's language instead of English strings inside the schemas. Pure.
//
// Most issues map by their code (too short, not a number, …). Where a field needs its own words,
// the schema says which problem with `because(problem)` — zod carries it in the issue's message,
// the only slot every check, refinement and enum offers — and fieldProblems() reads it back.
import type { z } from "zod";
import type { FieldProblem } from "./problems";

const MARK = "problem:";

/** A zod check option (`{ message }`) that reports `problem` when the check fails. */
export function because(problem: FieldProblem): { message: string } {
  return { message: MARK + JSON.stringify(problem) };
}

function declared(message: string): FieldProblem | null {
  return message.startsWith(MARK) ? (JSON.parse(message.slice(MARK.length)) as FieldProblem) : null;
}

export function problemOfIssue(issue: z.core.$ZodIssue): FieldProblem {
  const own = declared(issue.message);
  if (own) return own;
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "int") return { kind: "not-whole" };
      if (issue.expected === "number") return { kind: "not-a-number" };
      // Forms and JSON bodies send strings, arrays and objects: a wrong type is almost always a
      // field that was left out.
      return { kind: "required" };
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? { kind: "required" } : { kind: "too-short", min };
      if (issue.origin === "number" || issue.origin === "int") return { kind: "too-small", min: issue.inclusive ? min : min + 1 };
      return min <= 1 ? { kind: "required" } : { kind: "too-small", min };
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return { kind: "too-long", max };
      return { kind: "too-large", max: issue.inclusive ? max : max - 1 };
    }
    case "invalid_format":
      if (issue.format === "email") return { kind: "invalid-email" };
      if (issue.format === "datetime" || issue.format === "date") return { kind: "invalid-date" };
      return { kind: "invalid-format" };
    case "invalid_value":
      return { kind: "invalid-choice", options: issue.values.map(String) };
    case "not_multiple_of":
      return { kind: "not-whole" };
    default:
      return { kind: "invalid" };
  }
}

export type FieldProblems = Readonly<Record<string, readonly FieldProblem[]>>;

/**
 * Problems per top-level field, as forms name their fields ("" for the input as a whole): a
 * duration's `{ value, unit }` reports under the duration's own name.
 */
export function fieldProblems(error: z.ZodError): FieldProblems {
  const fields: Record<string, FieldProblem[]> = {};
  for (const issue of error.issues) (fields[String(issue.path[0] ?? "")] ??= []).push(problemOfIssue(issue));
  return fields;
}

// PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it ("invalid byte sequence"),
// which used to surface as a 500. It is refused where input is read, once for every field, so no
// schema has to remember it and nothing downstream ever sees one.
const NUL = "\u0000";

export function hasNul(text: string): boolean {
  return text.includes(NUL);
}

/**
 * The fields of an input (a parsed JSON body, a query string, a form's entries) that hold a NUL
 * anywhere inside — in a string or a key, at any depth — as field problems, or null. Walks with its
 * own stack: a 64 KiB body can nest thousands of levels deep.
 */
export function nulProblems(input: unknown): FieldProblems | null {
  const fields = new Set<string>();
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const stack: [unknown, string][] = isRecord(input) ? Object.entries(input).map(([k, v]) => [v, hasNul(k) ? "" : k]) : [[input, ""]];
  if (isRecord(input) && Object.keys(input).some(hasNul)) fields.add("");
  while (stack.length > 0) {
    const [value, field] = stack.pop()!;
    if (fields.has(field)) continue;
    if (typeof value === "string") {
      if (hasNul(value)) fields.add(field);
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push([item, field]);
    } else if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (hasNul(k)) fields.add(field);
        else stack.push([v, field]);
      }
    }
  }
  if (fields.size === 0) return null;
  return Object.fromEntries([...fields].map((field) => [field, [{ kind: "control-characters" } as const]]));
}
