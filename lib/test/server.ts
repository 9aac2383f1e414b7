import pg from "pg";

// Integration tests run on a real PostgreSQL (the embedded PGlite serializes everything, so a race
// test there would prove nothing). DATABASE_URL names the server and a database on it that tests
// may connect to; each test file gets its own database, copied from a migrated template.

// Read once at import: useFreshDatabase() later points DATABASE_URL at the test file's own database.
const SERVER_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function serverUrl(): string {
  return SERVER_URL;
}

export function urlFor(database: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
