// Benchmark databases: each benchmark makes its own on the local PostgreSQL and drops it at the
// end (the large-data one may keep its database between runs; see large-data.ts).
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { closePool } from "@/lib/db/pool";

/** The server the benchmarks use: loopback, trust auth (see TOOLCHAIN.md). */
export const SERVER_URL = process.env.BENCH_SERVER_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Every benchmark database starts with this, so a run can find (and clean) only its own. */
export const DATABASE_PREFIX = "orderops_bench_";

export function urlFor(database: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL, application_name: "orderops-bench-admin" });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  return withAdmin(async (admin) => (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount === 1);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Creates (or recreates) a database and applies the project's migrations to it. */
export async function createMigratedDatabase(name: string): Promise<string> {
  await withAdmin(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
  const url = urlFor(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(client);
  } finally {
    await client.end();
  }
  return url;
}

export interface BenchDatabase {
  readonly name: string;
  readonly url: string;
}

/**
 * Runs `work` on a fresh migrated database named after the benchmark, with DATABASE_URL (and so
 * the app's shared pool, getPool()) pointing at it; closes the pool and drops the database after,
 * whatever happens.
 */
export async function withFreshDatabase<T>(label: string, work: (db: BenchDatabase) => Promise<T>): Promise<T> {
  const name = `${DATABASE_PREFIX}${label.replace(/[^a-z0-9]/gi, "_")}_${process.pid}`;
  const url = await createMigratedDatabase(name);
  const previous = process.env.DATABASE_URL;
  await closePool();
  process.env.DATABASE_URL = url;
  try {
    return await work({ name, url });
  } finally {
    await closePool().catch(() => undefined);
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    await dropDatabase(name);
  }
}

/** A pool of its own on a benchmark database (the app's shared pool is getPool()). */
export function benchPool(url: string, max: number, applicationName: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max, application_name: applicationName });
}
