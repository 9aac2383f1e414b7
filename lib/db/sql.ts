import type pg from "pg";
import type { z } from "zod";

// Raw SQL, with its rows decoded at the boundary. Every raw statement in the app returns its rows
// through a zod schema, so a renamed or retyped column fails a test (the schema names the fields the
// code reads) instead of reaching a page as `undefined`; timestamps read through row_to_json arrive
// as text and are revived by the schema (`z.coerce.date()`), never by hand.

/** A pool, a checked-out client or a transaction's client: anything pg can run a statement on. */
export interface Queryable {
  query(statement: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult>;
}

/**
 * A statement PostgreSQL parses and plans once per connection and then only executes: for the few
 * that every payment and delivery runs (transit's, grant's, the API key lookups), where parsing and
 * planning are most of the database's work — pgbench runs the same transaction about twice as fast
 * prepared (bench/RESULTS.md, "transit"). The server may switch a prepared statement to a generic plan
 * after five runs; bench/explain.integration.test.ts holds each one to its index under a forced
 * generic plan. On the embedded database every connection shares PGlite's one session, where a
 * name prepared by one connection collides with the next (lib/db/embedded.ts): there the statement
 * is sent unnamed, as every other one is.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

const PREPARED: PreparedStatement[] = [];

export function prepared(name: string, text: string): PreparedStatement {
  const statement = { name, text };
  PREPARED.push(statement);
  return statement;
}

/** Every prepared statement of the modules loaded so far (for the plan test). */
export function preparedStatements(): readonly PreparedStatement[] {
  return PREPARED;
}

/** Set by openEmbedded(): the database is the embedded one. */
export const SHARED_SESSION_ENV = "DATABASE_SHARED_SESSION";

type Statement = string | PreparedStatement;

function run(db: Queryable, statement: Statement, values: readonly unknown[]): Promise<pg.QueryResult> {
  if (typeof statement === "string" || process.env[SHARED_SESSION_ENV] === "1") return db.query(textOf(statement), values as unknown[]);
  return db.query({ name: statement.name, text: statement.text, values: values as unknown[] });
}

function textOf(statement: Statement): string {
  return typeof statement === "string" ? statement : statement.text;
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
export async function rows<S extends z.ZodType>(db: Queryable, schema: S, statement: Statement, values: readonly unknown[] = []): Promise<z.output<S>[]> {
  const result = await run(db, statement, values);
  return result.rows.map((row) => decode(schema, row, textOf(statement)));
}

/** The first row of a statement, decoded, or null when it returned none. */
export async function maybeOne<S extends z.ZodType>(db: Queryable, schema: S, statement: Statement, values: readonly unknown[] = []): Promise<z.output<S> | null> {
  const result = await run(db, statement, values);
  return result.rows.length === 0 ? null : decode(schema, result.rows[0], textOf(statement));
}

/** The one row a statement must return (an aggregate, an INSERT … RETURNING), decoded. */
export async function one<S extends z.ZodType>(db: Queryable, schema: S, statement: Statement, values: readonly unknown[] = []): Promise<z.output<S>> {
  const row = await maybeOne(db, schema, statement, values);
  if (row === null) throw new Error(`«${textOf(statement).trim().split("\n")[0]!.slice(0, 80)}» returned no row`);
  return row;
}

/** A statement run for its effect: how many rows it touched. */
export async function execute(db: Queryable, statement: Statement, values: readonly unknown[] = []): Promise<number> {
  return (await run(db, statement, values)).rowCount ?? 0;
}
