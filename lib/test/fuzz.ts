// Hostile inputs for the entry-point fuzz tests (issue 11, item 8): arbitrary strings with NULs, lone
// surrogates and broken percent-escapes, numbers past every bound, JSON of the wrong shape, nested
// deep, and text that is no JSON at all. Plus the one check every answer must pass: nothing written
// unless the answer says something was done.
import { readdir } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { getPool } from "@/lib/db/pool";

/**
 * One seed per run, printed in the test names: `FUZZ_SEED=<seed> npx vitest run <file>` replays a
 * failure (fast-check also prints the counterexample's path).
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** Every file under app/ except tests, to enumerate the entry points the way the app has them. */
export async function appFiles(): Promise<string[]> {
  const entries = await readdir(path.join(process.cwd(), "app"), { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes(".test.")).map((e) => path.join(e.parentPath, e.name));
}

const NUL = "\u0000";

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("", " ", NUL, `a${NUL}b`, "\ud800", "x\udfffy", "%E0%A4%A", "%00", "%", "../..", "a/b", "😀", "\u202e", "null", "1e400"),
  // A NUL anywhere in a string is what PostgreSQL refuses: weighted up.
  fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}${NUL}${b}`),
  fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}${NUL}${b}`),
  fc.nat({ max: 5000 }).map((n) => "x".repeat(n)),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300, Number.MAX_VALUE, Number.MIN_VALUE, 0.5),
);

/** Any JSON value, weighted towards the strings and numbers above. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A valid sample with one field replaced by a hostile value, dropped, or joined by a stray key. */
export function mutated(samples: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return samples.chain((sample) => {
    const keys = Object.keys(sample);
    const extra = fc.tuple(hostileString, hostileValue).map(([k, v]) => ({ ...sample, [k]: v }));
    if (keys.length === 0) return extra;
    const replace = fc.tuple(fc.constantFrom(...keys), hostileValue).map(([k, v]) => ({ ...sample, [k]: v }));
    const drop = fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(sample).filter(([key]) => key !== k)));
    return fc.oneof(replace, replace, drop, extra, fc.constant(sample));
  });
}

/** A body as sent on the wire: JSON of any shape, nested thousands deep, a bare literal, or no JSON. */
export function hostileBody(samples: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: samples.map((v) => JSON.stringify(v)) },
    { weight: 4, arbitrary: mutated(samples).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: hostileValue.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 10_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`) },
    { weight: 1, arbitrary: fc.constantFrom("1e400", "-1e400", '"\\ud800"', '{"amount":1e400}', "{", "", "null", "[]", '{"__proto__":{"x":1}}') },
    { weight: 1, arbitrary: fc.string({ unit: "binary" }) },
  );
}

/** A query string: pairs of hostile keys and values, encoded — or, sometimes, not. */
export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.tuple(hostileString, hostileString), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()),
  fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom("%E0%A4%A", "%00", "%", "%ZZ", "%ED%A0%80", "a+b")), { maxLength: 3 }).map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&"),
  ),
);

// Tables a refusal may write on purpose: the audit log (refusals are audited), its chain heads, and
// the windows that count refusals and failed API keys (lib/db/rate-window.ts).
const WRITTEN_BY_REFUSALS = new Set(["audit_events", "audit_chain_heads", "rate_windows", "_prisma_migrations"]);
let countSql: string | null = null;

/** Row counts of every table but the audit log's and the rate windows'. */
export async function rowCounts(): Promise<Record<string, number>> {
  if (!countSql) {
    const { rows } = await getPool().query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const tables = rows.map((r) => r.table_name).filter((t) => !WRITTEN_BY_REFUSALS.has(t));
    countSql = `SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t}") AS "${t}"`).join(", ")}`;
  }
  return (await getPool().query<Record<string, number>>(countSql)).rows[0]!;
}
