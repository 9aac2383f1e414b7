// `npm start` (through scripts/run.mjs, which has resolved the secrets and made sure the build is
// current): opens the database (embedded PGlite when DATABASE_URL is unset), migrates, seeds demo
// data into an empty embedded database, then serves the console on PORT (default 3000) from
// WEB_CONCURRENCY web processes (default one per core; one on the embedded database) behind that
// one port, with Node's cluster module (lib/process/web-cluster.ts), and runs the worker (and, on the
// embedded database, the simulator) beside them, restarting any of them that exits. The node's one
// connection budget (DATABASE_POOL_MAX) is split between them (lib/process/connection-budget.ts).
// `npm run dev` serves one web process on `next dev` instead.
//
// This runs compiled, from <build directory>/orderops/start.mjs; the processes it starts are its
// siblings there (web.mjs, worker.mjs, cli.mjs), so nothing is compiled at run time.
import type { SpawnOptions } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@/lib/db/open";
import { migrate } from "@/lib/db/migrate";
import { closePool, getPool } from "@/lib/db/pool";
import { disconnectPrisma, getPrisma } from "@/lib/db/prisma";
import { logger } from "@/lib/log";
import { connectionBudget } from "@/lib/process/connection-budget";
import { keepRunning } from "@/lib/process/supervise";
import { startWebCluster, webProcessCount } from "@/lib/process/web-cluster";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { DEMO_OUTBOX_MAX_ATTEMPTS } from "@/lib/sim/flaky-webhook";
import { formatDemoStaff, seedDemoStaff } from "@/lib/seed/staff";

const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const log = logger.child({ component: "start" });
const ENTRIES_DIR = path.dirname(fileURLToPath(import.meta.url));

/** One of the compiled entry points beside this file. */
const script = (name: "web" | "worker" | "cli") => path.join(ENTRIES_DIR, `${name}.mjs`);
/** Every child resolves `server-only` and React as Next's server build does. */
const NODE_FLAGS = ["--conditions=react-server"];

async function main(): Promise<void> {
  const database = await openDatabase("serve");
  const embedded = database.embedded;
  log.info({ database: embedded ? "embedded (PGlite in .data/)" : "DATABASE_URL" }, "database opened");

  const client = await getPool().connect();
  try {
    const report = await migrate(client);
    log.info({ applied: report.applied }, "migrations applied");
  } finally {
    client.release();
  }

  // Demo data only ever goes into the embedded database; a real one is seeded on purpose (cli seed).
  if (embedded && (await isEmpty())) {
    log.info("empty embedded database: seeding demo data");
    const report = await seedDemo(getPool(), { orders: Number(process.env.DEMO_ORDERS ?? 3000) });
    log.info({ orders: report.rows.orders, elapsedMs: report.elapsedMs }, "demo data seeded");
    // Shown on the terminal on purpose: the newcomer needs these to sign in.
    process.stdout.write(`${formatDemoStaff(await seedDemoStaff(getPool())).join("\n")}\n`);
  }
  // The children open their own connections; this process only keeps the embedded server.
  await disconnectPrisma();
  await closePool();

  const simulate = embedded && process.env.SIMULATOR !== "off";
  const webProcesses = dev ? 1 : webProcessCount(process.env, { embedded });
  const budget = connectionBudget(process.env, { web: webProcesses, simulator: simulate });
  const pool = (size: number) => ({ DATABASE_POOL_SIZE: String(size) });

  let stopping = false;
  // The console is the one thing that must be up: if it cannot start, stop everything.
  const webEnded = (fields: object) => {
    if (stopping) return;
    log.error(fields, "the web server could not start or exited; stopping");
    void stop("SIGTERM", 1);
  };
  // Web processes in each of WEB_CONCURRENCY cluster workers sharing PORT (one under `npm run dev`).
  // One that exits after the console came up is restarted with backoff while the others keep serving.
  // V8 lets an idle-looking heap grow far past what it keeps alive: at 50 busy connections a web
  // process reached 833 MiB RSS uncapped, 437 MiB with its old space held to 384 MB and no slower
  // (bench/ANALYSIS.md, issue 15).
  const web = startWebCluster(
    {
      processes: webProcesses,
      exec: script("web"),
      args: [],
      // In development the web process imports the API's route files from source (lib/api/serve.ts).
      execArgv: [...NODE_FLAGS, ...(dev ? ["--import", "tsx"] : ["--max-old-space-size=384"])],
      env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: dev ? "development" : "production", PORT: port, ...(dev ? { ORDEROPS_DEV: "1" } : {}), ...pool(budget.perWebProcess) },
    },
    { log, onCannotStart: webEnded },
  );
  // The background processes are restarted with backoff when they exit (lib/process/supervise.ts).
  // The demo's relay gives up sooner, so a message its unreliable receiver never takes is dead within
  // minutes, in view (lib/sim/flaky-webhook.ts); a value set by hand wins.
  const relay: Record<string, string> = simulate && !process.env.OUTBOX_MAX_ATTEMPTS ? { OUTBOX_MAX_ATTEMPTS: String(DEMO_OUTBOX_MAX_ATTEMPTS) } : {};
  const background = [
    keepRunning({ name: "worker", command: process.execPath, args: [...NODE_FLAGS, script("worker")], options: childOptions({ ...pool(budget.worker), ...relay }) }, { log }),
  ];
  // The embedded demo comes alive: simulated channels and game servers, through the API only.
  if (simulate) {
    const traffic = ["simulate", "--rate", process.env.SIMULATOR_RATE ?? "0.5", "--minutes", process.env.SIMULATOR_MINUTES ?? "240"];
    background.push(keepRunning({ name: "simulator", command: process.execPath, args: [...NODE_FLAGS, script("cli"), ...traffic], options: childOptions(pool(budget.simulator)) }, { log }));
  }
  log.info({ url: `http://localhost:${port}`, webProcesses, background: background.length, connections: budget }, "console starting");

  async function stop(signal: NodeJS.Signals, exitCode = 0): Promise<void> {
    if (stopping) return;
    stopping = true;
    await Promise.all([web.stop(signal), ...background.map((child) => child.stop(signal))]);
    await database.close();
    process.exit(exitCode);
  }
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

async function isEmpty(): Promise<boolean> {
  return (await getPrisma().tenant.findFirst({ select: { id: true } })) === null;
}

function childOptions(env: Record<string, string>): SpawnOptions {
  return { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } };
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, "start failed");
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
