// Small builders for the seeder's SQL text. Per chunk, $from..$to is the range of order indexes
// (1-based, within this run) and $now is "now"; `bind` numbers them.

export const SECOND_US = 1_000_000;
export const MINUTE_US = 60 * SECOND_US;
export const HOUR_US = 60 * MINUTE_US;
export const DAY_US = 24 * HOUR_US;

/** Uniform in [0, 1) from (order index, salt): pg_temp.seed_u, a pure function of the run's seed. */
export const u = (i: string, salt: number | string): string => `pg_temp.seed_u(${i}, ${salt})`;

/** Microseconds between two timestamptz expressions, as float8. */
export const us = (later: string, earlier: string): string => `(extract(epoch FROM (${later}) - (${earlier})) * 1000000)::float8`;

export const micros = (expr: string): string => `(floor(${expr})::bigint * interval '1 microsecond')`;

/** Beijing wall-clock time (the channels' and players' clock), without relying on tz data. */
export const local = (ts: string, format: string): string => `to_char((${ts}) AT TIME ZONE 'UTC' + interval '8 hours', '${format}')`;

/** A SQL string literal. */
export function lit(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A constant JSON value as a jsonb literal (a Refusal made by the domain's own functions). */
export function jsonLit(value: unknown): string {
  return `${lit(JSON.stringify(value))}::jsonb`;
}

/**
 * jsonb_build_object over one SQL expression per field of T: the detail a live writer builds as a
 * TypeScript object, built here per row, with the type checking that no field is missing or misspelt.
 */
export function jsonObject<T extends object>(fields: { readonly [K in keyof T]-?: string }): string {
  return `jsonb_build_object(${Object.entries(fields)
    .map(([key, expr]) => `${lit(key)}, ${expr as string}`)
    .join(", ")})`;
}

/** One of `options`, picked by seed_u(i, salt): the same words for the same order of the same seed. */
export function pick(options: readonly string[], i: string, salt: number | string): string {
  return `(ARRAY[${options.map(lit).join(", ")}])[1 + floor(${u(i, salt)} * ${options.length})::int]`;
}

export type ChunkParam = "from" | "to" | "now";

/** Numbers the named parameters a statement uses ($from, $to, $now), in order of first use. */
export function bind(sql: string, values: Readonly<Record<ChunkParam, unknown>>): { text: string; values: unknown[] } {
  const used: ChunkParam[] = [];
  const text = sql.replace(/\$(from|to|now)\b/g, (_, name: ChunkParam) => {
    if (!used.includes(name)) used.push(name);
    return `$${used.indexOf(name) + 1}`;
  });
  return { text, values: used.map((name) => values[name]) };
}
