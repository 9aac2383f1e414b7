// Where the browser tests run: their own database on the same PostgreSQL server as the unit tests,
// served by two app nodes behind a load balancer on E2E_PORT (e2e/server.ts).
// E2E_SERVER_URL carries the server to the harness process, whose nodes' DATABASE_URL is the e2e one.
import { fileURLToPath } from "node:url";

const server = new URL(process.env.E2E_SERVER_URL ?? process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
const database = `${server.pathname.slice(1) || "postgres"}_e2e`.replace(/[^a-z0-9_]/gi, "_");

/** The balancer's port: the browser tests' baseURL. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_SERVER_URL = server.toString();
export const E2E_DATABASE_NAME = database;
export const E2E_DATABASE_URL = Object.assign(new URL(server.toString()), { pathname: `/${database}` }).toString();

/**
 * The session secret and server-actions key of every node (both are derived from it): fixed, so two
 * nodes built apart accept each other's sessions and actions. A test value, never a real one.
 */
export const E2E_SECRET = "e2e-only-3b9f0c6a1d7e42f58a2c9e4b7d1f6a03";

export interface E2ENode {
  /** The balancer's name for it, which it sends back in X-Served-By. */
  readonly name: "node-a" | "node-b";
  readonly port: number;
  /** Its own build directory, as a machine of its own would have. */
  readonly distDir: string;
  /** WEB_CONCURRENCY: node A runs a cluster of two, so that path is covered behind the balancer too. */
  readonly webProcesses: number;
}

export const E2E_NODES: readonly E2ENode[] = [
  { name: "node-a", port: E2E_PORT + 1, distDir: ".next-e2e-a", webProcesses: 2 },
  { name: "node-b", port: E2E_PORT + 2, distDir: ".next-e2e-b", webProcesses: 1 },
];

/**
 * The harness's facts for the specs (which process group each node runs in now, see e2e/nodes.ts)
 * and the balancer's configuration: in the run's output directory, after Playwright has emptied it.
 */
export const E2E_HARNESS_DIR = fileURLToPath(new URL("../test-results/harness/", import.meta.url));
export const E2E_NODES_FILE = `${E2E_HARNESS_DIR}nodes.json`;
