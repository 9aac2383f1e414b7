// Where the browser tests run: their own database on the same PostgreSQL server as the unit tests.
// E2E_SERVER_URL carries the server to the web server process, whose own DATABASE_URL is the e2e one.
const server = new URL(process.env.E2E_SERVER_URL ?? process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
const database = `${server.pathname.slice(1) || "postgres"}_e2e`.replace(/[^a-z0-9_]/gi, "_");

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_SERVER_URL = server.toString();
export const E2E_DATABASE_NAME = database;
export const E2E_DATABASE_URL = Object.assign(new URL(server.toString()), { pathname: `/${database}` }).toString();
