// The console as production runs it: `npm start` with DATABASE_URL set — it builds only if the
// sources changed since the last build (scripts/build.mjs), migrates, and serves the web processes
// (lib/process/web-process.ts) together with the background worker.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { request } from "./http";
import { OUT_DIR } from "./runner";
import { sleep } from "./stats";

export interface ConsoleServer {
  readonly url: string;
  readonly logFile: string;
  /** The resident memory of each web process now, in MiB (Linux: read from /proc). */
  webProcessRss(): number[];
  /** CPU time used so far by the processes of `npm start`'s group, by role (Linux: read from /proc). */
  processCpu(): ProcessCpu;
  stop(): Promise<void>;
}

/** CPU time (user + system) in ms since each process started. */
export interface ProcessCpu {
  /** Each web process's, by pid: a pid that changes between two readings was restarted between them. */
  readonly web: ReadonlyMap<number, number>;
  readonly worker: number;
  /** npm, and the cluster primary that hands each new connection to a web process. */
  readonly other: number;
}

/**
 * Starts the console; tries once more if npm start was ended by a signal before it served (the
 * machine is shared, and a build or a server can be stopped from outside).
 */
export async function startConsole(options: StartOptions): Promise<ConsoleServer> {
  try {
    return await startOnce(options);
  } catch (error) {
    if (!(error instanceof KilledBeforeServing)) throw error;
    options.log(`${error.message}; starting again`);
    return startOnce(options);
  }
}

class KilledBeforeServing extends Error {}

/** Fixed, so that a build made by one benchmark serves the next without building again. */
const BENCH_SECRET = "bench-only-secret-never-used-anywhere-real-0123456789";

interface StartOptions {
  readonly databaseUrl: string;
  readonly port: number;
  readonly label: string;
  readonly log: (message: string) => void;
  /** How long a build plus start may take. */
  readonly timeoutMs?: number;
}

async function startOnce(options: StartOptions): Promise<ConsoleServer> {
  mkdirSync(OUT_DIR, { recursive: true });
  const logFile = path.join(OUT_DIR, `server-${options.label}.log`);
  const out = openSync(logFile, "w");
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn("npm", ["start"], {
    // Its own process group, so stop() reaches npm, next and the worker it started.
    detached: true,
    stdio: ["ignore", out, out],
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      NEXTAUTH_URL: url,
      // The secrets a real database requires (scripts/build.mjs); the code before them took NEXTAUTH_SECRET.
      ORDEROPS_SECRET: BENCH_SECRET,
      NEXTAUTH_SECRET: BENCH_SECRET,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  let exited: number | null | undefined;
  let signal: NodeJS.Signals | null = null;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, killedBy) => {
      exited = code;
      signal = killedBy;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited !== undefined || child.pid === undefined) return;
    process.kill(-child.pid, "SIGTERM");
    const killed = await Promise.race([exit.then(() => true), sleep(15_000).then(() => false)]);
    if (!killed && exited === undefined) {
      process.kill(-child.pid, "SIGKILL");
      await exit;
    }
  };

  // If this process ends first (an error, Ctrl-C), the server must not outlive it.
  const orphanGuard = () => {
    if (exited === undefined && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  };
  process.once("exit", orphanGuard);
  const stopAndForget = async () => {
    await stop();
    process.removeListener("exit", orphanGuard);
  };

  const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
  options.log(`npm start on port ${options.port} (builds first if the sources changed; log: ${path.relative(process.cwd(), logFile)})`);
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      process.removeListener("exit", orphanGuard);
      if (signal !== null) throw new KilledBeforeServing(`npm start was ended by ${signal} before serving`);
      throw new Error(`npm start exited with code ${exited} before serving; see ${logFile}`);
    }
    const answer = await request(`${url}/sign-in`, { timeoutMs: 30_000 }).catch(() => null);
    if (answer?.status === 200) return { url, logFile, webProcessRss: () => webProcessRss(child.pid!), processCpu: () => processCpu(child.pid!), stop: stopAndForget };
    await sleep(1000);
  }
  await stopAndForget();
  throw new Error(`the console did not answer on ${url}/sign-in in time; see ${logFile}`);
}

/** Web processes: compiled (<build>/orderops/web.mjs), or run from source by tsx before issue 24. */
const WEB_PROCESS = /orderops\/web\.mjs|lib\/process\/web-process\.ts/;

const WORKER_PROCESS = /orderops\/worker\.mjs/;

/** The processes of a group now: pid, the fields of /proc/<pid>/stat after the command, the command line. */
function groupProcesses(group: number): { pid: number; fields: string[]; cmdline: string }[] {
  const found: { pid: number; fields: string[]; cmdline: string }[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command's closing parenthesis: state, ppid, pgrp, …
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== group) continue;
      found.push({ pid: Number(pid), fields, cmdline: readFileSync(`/proc/${pid}/cmdline`, "utf8") });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** The RSS of the web processes (lib/process/web-process.ts) in `npm start`'s process group. */
function webProcessRss(group: number): number[] {
  const sizes: number[] = [];
  for (const { pid, cmdline } of groupProcesses(group)) {
    if (!WEB_PROCESS.test(cmdline)) continue;
    try {
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) sizes.push(Number(rss[1]) / 1024);
    } catch {
      // the process ended while we looked
    }
  }
  return sizes;
}

/** Clock ticks per second, the unit of /proc/<pid>/stat's times. */
let clockTick: number | undefined;

/** Web processes' CPU between two readings; a web process restarted in between would hide its time. */
export function webMs(before: ProcessCpu, after: ProcessCpu): number {
  if (before.web.size === 0 || [...before.web.keys()].some((pid) => !after.web.has(pid))) {
    throw new Error(`the web processes changed during a measurement (${[...before.web.keys()]} → ${[...after.web.keys()]})`);
  }
  return [...before.web].reduce((sum, [pid, t]) => sum + after.web.get(pid)! - t, 0);
}

/**
 * CPU time (user + system, ms) of each of `pids` that is alive now, read from /proc: for processes
 * outside `npm start`'s group, such as the PostgreSQL backends serving the console's connections.
 */
export function pidsCpu(pids: readonly number[]): Map<number, number> {
  clockTick ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) / clockTick) * 1000);
    } catch {
      // Gone since it was listed.
    }
  }
  return cpu;
}

function processCpu(group: number): ProcessCpu {
  clockTick ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const web = new Map<number, number>();
  let worker = 0;
  let other = 0;
  for (const { pid, fields, cmdline } of groupProcesses(group)) {
    // utime and stime: fields 14 and 15 of the stat line, 11 and 12 after the command.
    const ms = ((Number(fields[11]) + Number(fields[12])) / clockTick) * 1000;
    if (WEB_PROCESS.test(cmdline)) web.set(pid, ms);
    else if (WORKER_PROCESS.test(cmdline)) worker += ms;
    else other += ms;
  }
  return { web, worker, other };
}
