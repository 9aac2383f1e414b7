// `npm start`: the one command. Opens the database (embedded PGlite when DATABASE_URL is unset),
// migrates, seeds demo data into an empty embedded database, builds if the sources changed since
// the last build, then serves the console on PORT (default 3000) from WEB_CONCURRENCY web processes
// (default one per core; one on the embedded database) behind that one port, with Node's cluster
// module (lib/process/web-cluster.ts), and runs the worker (and, on the embedded database, the
// simulator) beside them, restarting any of them that exits. `npm run dev` serves one `next dev`.
import { spawn, type SpawnOptions } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DATA_DIR } from "@/lib/db/embedded";
import { openDatabase } from "@/lib/db/open";
import { migrate } from "@/lib/db/migrate";
import { closePool, getPool } from "@/lib/db/pool";
import { disconnectPrisma, getPrisma } from "@/lib/db/prisma";
import { logger } from "@/lib/log";
import { keepRunning } from "@/lib/process/supervise";
import { startWebCluster, webProcessCount } from "@/lib/process/web-cluster";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { formatDemoStaff, seedDemoStaff } from "@/lib/seed/staff";

const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const log = logger.child({ component: "start" });

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
  process.env.NEXTAUTH_SECRET ??= await installationSecret();

  if (!dev && (await needsBuild())) await run("build", ["next", "build"]);

  let stopping = false;
  // The console is the one thing that must be up: if it cannot start, stop everything.
  const webEnded = (fields: object) => {
    if (stopping) return;
    log.error(fields, "the web server could not start or exited; stopping");
    void stop("SIGTERM", 1);
  };
  let stopWeb: (signal: NodeJS.Signals) => Promise<void>;
  let webProcesses = 1;
  if (dev) {
    // Development: one `next dev` (it compiles on demand and reloads; one process is the point).
    const web = spawn(bin("next"), ["dev", "-p", port], childOptions());
    web.once("exit", (code, signal) => webEnded({ code, signal }));
    web.once("error", (error) => webEnded({ err: error }));
    stopWeb = async (signal) => void web.kill(signal);
  } else {
    // Production: Next's server (lib/process/web-process.ts) in each of WEB_CONCURRENCY cluster
    // workers sharing PORT. One that exits after the console came up is restarted with backoff
    // while the others keep serving.
    webProcesses = webProcessCount(process.env, { embedded });
    // V8 lets an idle-looking heap grow far past what it keeps alive: at 50 busy connections a web
    // process reached 833 MiB RSS uncapped, 437 MiB with its old space held to 384 MB and no
    // slower (bench/ANALYSIS.md, issue 15).
    const web = startWebCluster(
      { processes: webProcesses, exec: "lib/process/web-process.ts", args: [], execArgv: ["--max-old-space-size=384", ...tsx()], env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", PORT: port } },
      { log, onCannotStart: webEnded },
    );
    stopWeb = (signal) => web.stop(signal);
  }
  // The background processes are restarted with backoff when they exit (lib/process/supervise.ts).
  // Node itself rather than the tsx wrapper: a signal to the wrapper would not reach the process.
  const background = [keepRunning({ name: "worker", command: process.execPath, args: tsx("lib/jobs/worker-main.ts"), options: childOptions() }, { log })];
  // The embedded demo comes alive: simulated channels and game servers, through the API only.
  if (embedded && process.env.SIMULATOR !== "off") {
    const traffic = ["simulate", "--rate", process.env.SIMULATOR_RATE ?? "0.5", "--minutes", process.env.SIMULATOR_MINUTES ?? "240"];
    background.push(keepRunning({ name: "simulator", command: process.execPath, args: tsx("lib/cli/main.ts", ...traffic), options: childOptions() }, { log }));
  }
  log.info({ url: `http://localhost:${port}`, webProcesses, background: background.length }, "console starting");

  async function stop(signal: NodeJS.Signals, exitCode = 0): Promise<void> {
    if (stopping) return;
    stopping = true;
    await Promise.all([stopWeb(signal), ...background.map((child) => child.stop(signal))]);
    await database.close();
    process.exit(exitCode);
  }
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

/** Signs session cookies when NEXTAUTH_SECRET is not set: random, made once, kept in .data/. */
async function installationSecret(): Promise<string> {
  const file = path.join(DATA_DIR, "auth-secret");
  const existing = await readFile(file, "utf8").catch(() => null);
  if (existing) return existing.trim();
  await mkdir(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

async function isEmpty(): Promise<boolean> {
  return (await getPrisma().tenant.findFirst({ select: { id: true } })) === null;
}

function bin(name: string): string {
  return path.join(process.cwd(), "node_modules", ".bin", name);
}

function childOptions(): SpawnOptions {
  return { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } };
}

function tsx(...args: string[]): string[] {
  return ["--conditions=react-server", "--import", "tsx", ...args];
}

function run(label: string, [name, ...args]: string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(bin(name!), args, childOptions());
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${label} failed with exit code ${code}`))));
  }).then(() => writeStamp());
}

// A build is reused while no source file changed: the stamp hashes every source path, size and mtime.
const SOURCES = ["app", "components", "lib", "proxy.ts", "next.config.mjs", "package-lock.json", "postcss.config.mjs"];
const STAMP = path.join(process.cwd(), ".next", "orderops-source-stamp");

async function sourceStamp(): Promise<string> {
  const hash = createHash("sha256");
  const visit = async (entry: string): Promise<void> => {
    if (entry.includes(`${path.sep}generated`) || entry.endsWith(".test.ts")) return;
    const info = await stat(entry).catch(() => null);
    if (!info) return;
    if (info.isDirectory()) {
      for (const child of (await readdir(entry)).sort()) await visit(path.join(entry, child));
    } else {
      hash.update(`${entry}:${info.size}:${info.mtimeMs}\n`);
    }
  };
  for (const source of SOURCES) await visit(source);
  return hash.digest("hex");
}

async function needsBuild(): Promise<boolean> {
  const previous = await readFile(STAMP, "utf8").catch(() => null);
  return previous !== (await sourceStamp());
}

async function writeStamp(): Promise<void> {
  await writeFile(STAMP, await sourceStamp());
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, "start failed");
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
