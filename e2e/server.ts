// The browser tests' servers, shaped as production is: two app nodes, each `npm start` with its own
// build directory as two machines would have, on one fresh PostgreSQL database, behind a real load
// balancer (HAProxy: round robin, no stickiness) on E2E_PORT. Every spec then runs through the
// balancer, so every page load and server action may land on either node.
//
// This process is the machines' service manager too: a node that dies (a test kills one) is started
// again after a second, and its facts (port, process group) are rewritten for the specs
// (E2E_NODES_FILE, read by e2e/nodes.ts). SIGTERM or SIGINT (Playwright's graceful shutdown) stops
// the balancer and both nodes' process groups, and so does the end of stdin: Playwright holds it
// open, so it closes when the runner is gone, however it went.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import net from "node:net";
import readline from "node:readline";
import type { Readable, Writable } from "node:stream";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { closePool, getPool } from "@/lib/db/pool";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { seedDemoStaff } from "@/lib/seed/staff";
import { E2E_DATABASE_NAME, E2E_DATABASE_URL, E2E_HARNESS_DIR, E2E_NODES, E2E_NODES_FILE, E2E_PORT, E2E_SECRET, E2E_SERVER_URL, type E2ENode } from "./env";

/** How long a node may take to answer /sign-in the first time: its `npm start` builds first. */
const FIRST_START_MS = 8 * 60_000;
/** Pause before a dead node is started again (a service manager's RestartSec). */
const RESTART_AFTER_MS = 1_000;
/** How long a stopped node's processes get to finish before SIGKILL. */
const STOP_GRACE_MS = 15_000;

const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => process.stdout.write(`[harness] ${line}\n`);

interface Running {
  readonly spec: E2ENode;
  child: ChildProcess | null;
  /** The process group `npm start` leads: the whole node, as one machine. */
  pgid: number | null;
  starts: number;
  restartTimer?: NodeJS.Timeout;
}

const nodes: Running[] = E2E_NODES.map((spec) => ({ spec, child: null, pgid: null, starts: 0 }));
let balancer: ChildProcess | null = null;
let stopping = false;
let serving = false;

// ---------------------------------------------------------------------------------------------
// Before anything starts: the tools and the ports.

if (spawnSync("haproxy", ["-v"], { stdio: "ignore" }).error) {
  fail("haproxy is not installed: the browser tests run two app nodes behind HAProxy. Install it (Debian: `apt-get install -y haproxy`; .ci/run does).");
}
for (const { name, port } of E2E_NODES) {
  if (await portTaken(port)) fail(`port ${port} (${name}) is already in use: a node of an earlier run still serving? Stop it, or set E2E_PORT.`);
}
mkdirSync(E2E_HARNESS_DIR, { recursive: true });
process.on("SIGTERM", () => void stop(0, "SIGTERM"));
process.on("SIGINT", () => void stop(0, "SIGINT"));
if (!process.stdin.isTTY) {
  process.stdin.on("end", () => void stop(0, "stdin closed: the test runner is gone"));
  process.stdin.resume();
}

try {
  await prepareDatabase();
  // The nodes, one after the other: each builds on its first start, and two builds at once would
  // only share the machine's two cores.
  for (const node of nodes) {
    start(node);
    await answering(node, FIRST_START_MS);
    say(`${node.spec.name} serving on ${node.spec.port} after ${seconds()} (built into ${node.spec.distDir} unless it was current)`);
  }
  // The balancer, once both nodes answer: the tests start as soon as it does (playwright.config.ts).
  startBalancer();
  serving = true;
  say(`balancer on ${E2E_PORT} (round robin over ${nodes.map((n) => n.spec.name).join(", ")}) after ${seconds()}`);
} catch (error) {
  await stop(1, error instanceof Error ? error.message : String(error));
}

// ---------------------------------------------------------------------------------------------

/** A fresh database with demo data and the demo staff. */
async function prepareDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: E2E_SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${E2E_DATABASE_NAME}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${E2E_DATABASE_NAME}"`);
  await admin.end();

  process.env.DATABASE_URL = E2E_DATABASE_URL;
  const client = await getPool().connect();
  await migrate(client);
  client.release();
  await seedDemo(getPool(), { orders: 600, seed: 7 });
  await seedDemoStaff(getPool());
  await closePool();
  say(`database ${E2E_DATABASE_NAME} seeded after ${seconds()}`);
}

function startBalancer(): void {
  const config = `${E2E_HARNESS_DIR}haproxy.cfg`;
  writeFileSync(config, haproxyConfig());
  balancer = spawn("haproxy", ["-db", "-f", config], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  relay(balancer.stdout!, "haproxy", process.stdout);
  relay(balancer.stderr!, "haproxy", process.stderr);
  balancer.once("error", (error) => void stop(1, `haproxy could not start: ${error.message}`));
  balancer.once("exit", (code, signal) => void stop(1, `haproxy exited (${signal ?? `exit code ${code}`})`));
  writeFacts();
}

function start(node: Running): void {
  const { spec } = node;
  const child = spawn("npm", ["start"], {
    // Its own process group: the node is one unit, killed whole by a test (e2e/nodes.ts) or by stop().
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: E2E_DATABASE_URL,
      NEXT_DIST_DIR: spec.distDir,
      ORDEROPS_SECRET: E2E_SECRET,
      PORT: String(spec.port),
      // The balancer connects from loopback; the tests also play clients behind it by sending
      // X-Forwarded-For from loopback themselves (e2e/auth.spec.ts).
      TRUSTED_PROXIES: "127.0.0.1,::1",
      WEB_CONCURRENCY: String(spec.webProcesses),
      LOG_LEVEL: "warn",
      // Names its processes' database connections (application_name) and log lines after the node.
      ORDEROPS_SERVICE: `orderops-${spec.name}`,
    },
  });
  node.child = child;
  node.pgid = child.pid ?? null;
  node.starts += 1;
  relay(child.stdout!, spec.name, process.stdout);
  relay(child.stderr!, spec.name, process.stderr);
  child.once("error", (error) => say(`${spec.name}: npm start could not run: ${error.message}`));
  child.once("exit", (code, signal) => {
    const pgid = node.pgid;
    node.child = null;
    node.pgid = null;
    if (stopping) return;
    // Whatever of the node outlived its `npm start` goes with it, as when a machine's service stops.
    if (pgid !== null) killGroup(pgid, "SIGKILL");
    writeFacts();
    say(`${spec.name} exited (${signal ?? `exit code ${code}`})`);
    // Before the balancer is up, a node that exits cannot start: answering() stops the run.
    if (!serving) return;
    say(`${spec.name}: starting it again in ${RESTART_AFTER_MS} ms`);
    node.restartTimer = setTimeout(() => {
      if (stopping) return;
      start(node);
      writeFacts();
      void answering(node, 120_000).then(
        () => say(`${spec.name} serving again (start ${node.starts})`),
        (error: unknown) => say(`${spec.name}: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, RESTART_AFTER_MS);
  });
  writeFacts();
}

/** Resolves once the node answers /sign-in with 200 on its own port; rejects if it dies or takes too long. */
async function answering(node: Running, withinMs: number): Promise<void> {
  const child = node.child;
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (stopping) throw new Error(`${node.spec.name}: stopping`);
    if (child === null || node.child !== child) throw new Error(`${node.spec.name} exited before it answered`);
    const status = await fetch(`http://127.0.0.1:${node.spec.port}/sign-in`, { redirect: "manual", signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${node.spec.name} did not answer /sign-in within ${withinMs / 1000} s`);
}

function haproxyConfig(): string {
  return `# Written by e2e/server.ts for one run of the browser tests.
global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client 2m
    timeout server 2m
    timeout http-request 30s
    timeout http-keep-alive 10s
    timeout queue 10s
    timeout check 2s
    # The node sees the client's address in X-Forwarded-For and trusts it from loopback (TRUSTED_PROXIES).
    option forwardfor
    # A request is tried again, on the other node, only when no connection could be made to the
    # first: a request that may have reached a node is never replayed (a pay, a server action).
    retries 3
    retry-on conn-failure
    option redispatch 1

frontend console
    bind 127.0.0.1:${E2E_PORT}
    default_backend nodes

backend nodes
    # Every request on its own: no stickiness, no cookie, no preference for the last server.
    balance roundrobin
    option httpchk
    http-check send meth GET uri /sign-in ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2
    # Which node answered, for the specs (e2e/two-nodes.spec.ts).
    http-response set-header X-Served-By %s
${E2E_NODES.map((n) => `    server ${n.name} 127.0.0.1:${n.port} check`).join("\n")}
`;
}

/** The facts the specs read (e2e/nodes.ts), replaced whole so a reader never sees half a file. */
function writeFacts(): void {
  const facts = {
    balancer: { port: E2E_PORT, pid: balancer?.pid ?? null, config: `${E2E_HARNESS_DIR}haproxy.cfg` },
    nodes: nodes.map((n) => ({ name: n.spec.name, port: n.spec.port, distDir: n.spec.distDir, webProcesses: n.spec.webProcesses, pgid: n.pgid, starts: n.starts })),
  };
  writeFileSync(`${E2E_NODES_FILE}.tmp`, `${JSON.stringify(facts, null, 2)}\n`);
  renameSync(`${E2E_NODES_FILE}.tmp`, E2E_NODES_FILE);
}

async function stop(exitCode: number, why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  say(`stopping (${why})`);
  for (const node of nodes) clearTimeout(node.restartTimer);
  const groups = [...nodes.map((n) => n.pgid), balancer?.exitCode === null && balancer.signalCode === null ? (balancer.pid ?? null) : null].filter((g): g is number => g !== null);
  for (const group of groups) killGroup(group, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MS;
  while (groups.some(groupAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const group of groups.filter(groupAlive)) {
    say(`process group ${group} still running after ${STOP_GRACE_MS / 1000} s: SIGKILL`);
    killGroup(group, "SIGKILL");
  }
  process.exit(exitCode);
}

function fail(message: string): never {
  process.stderr.write(`[harness] error: ${message}\n`);
  process.exit(1);
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A child's output, line by line, named after it. */
function relay(from: Readable, name: string, to: Writable): void {
  readline.createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => to.write(`[${name}] ${line}\n`));
}
