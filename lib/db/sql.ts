import type pg from "pg";
import type { z } from "zod";

// Raw SQL, with its rows decoded at the boundary. Every raw statement in the app returns its rows
// through a zod schema, so a renamed or retyped column fails a test (the schema names the fields the
// code reads) instead of reaching a page as `undefined`; timestamps read through row_to_json arrive
// as text and are revived by the schema (`z.coerce.date()`), never by hand.

/** A pool, a checked-out client or a transaction's client: anything pg can run a statement on. */
export interface Queryable {
  query(text: string, values?: readonly unknown[]): Promise<pg.QueryResult>;
}

export class RowShapeError extends Error {
  constructor(statement: string, issues: readonly z.core.$ZodIssue[]) {
    const where = issues.map((i) => `${i.path.join(".") || "(row)"}: ${i.message}`).join("; ");
    super(`a row of «${statement.trim().split("\n")[0]!.slice(0, 80)}» does not match its schema: ${where}`);
    this.name = "RowShapeError";
  }
}

function decode<S extends z.ZodType>(schema: S, row: unknown, text: string): z.output<S> {
  const parsed = schema.safeParse(row);
  if (!parsed.success) throw new RowShapeError(text, parsed.error.issues);
  return parsed.data;
}

/** Every row of a statement, decoded. */
export async function rows<S extends z.ZodType>(db: Queryable, schema: S, text: string, values: readonly unknown[] = []): Promise<z.output<S>[]> {
  const result = await db.query(text, values as unknown[]);
  return result.rows.map((row) => decode(schema, row, text));
}

/** The first row of a statement, decoded, or null when it returned none. */
export async function maybeOne<S extends z.ZodType>(db: Queryable, schema: S, text: string, values: readonly unknown[] = []): Promise<z.output<S> | null> {
  const result = await db.query(text, values as unknown[]);
  return result.rows.length === 0 ? null : decode(schema, result.rows[0], text);
}

/** The one row a statement must return (an aggregate, an INSERT … RETURNING), decoded. */
export async function one<S extends z.ZodType>(db: Queryable, schema: S, text: string, values: readonly unknown[] = []): Promise<z.output<S>> {
  const row = await maybeOne(db, schema, text, values);
  if (row === null) throw new Error(`«${text.trim().split("\n")[0]!.slice(0, 80)}» returned no row`);
  return row;
}

/** A statement run for its effect: how many rows it touched. */
export async function execute(db: Queryable, text: string, values: readonly unknown[] = []): Promise<number> {
  return (await db.query(text, values as unknown[])).rowCount ?? 0;
}
