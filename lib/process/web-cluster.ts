import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import { DEFAULT_BACKOFF, restartDelayMs, type Backoff, type SupervisorLog } from "./supervise";

// In production `npm start` serves the console from several web processes behind one port, with
// Node's own `cluster` module: this process (the primary) owns the listening socket and hands each
// new connection to one of the web processes in turn (round robin), each of which runs Next's production server (lib/process/web-process.ts).
// Web processes keep no state (README, "Architecture"), so any of them may serve any request.
//
// A web process that dies after the console came up is started again, alone, after a backoff pause
// (the same pauses as the worker's, lib/process/supervise.ts), while the others keep serving. A web
// process that dies before the console ever came up means it cannot start (no build, port taken, a
// broken configuration): that is reported to the caller, which stops everything.

export interface WebClusterLog extends SupervisorLog {
  error(fields: object, message: string): void;
}

export interface WebClusterSpec {
  /** How many web processes (see webProcessCount()). */
  readonly processes: number;
  /** The script each web process runs, its arguments, and Node's own flags for it. */
  readonly exec: string;
  readonly args: readonly string[];
  readonly execArgv: readonly string[];
  /** Added to each web process's environment (on top of this process's own). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface WebClusterOptions {
  readonly log: WebClusterLog;
  readonly backoff?: Backoff;
  /** A web process listening this long without exiting means the console came up. */
  readonly upAfterMs?: number;
  /** Called once if a web process exits before the console ever came up. */
  readonly onCannotStart: (fields: object) => void;
}

export interface WebCluster {
  /** The pids of the web processes running now. */
  pids(): number[];
  /** Restarts so far. */
  restarts(): number;
  /** No more restarts: signals every web process and resolves once all have exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** How long stop() waits for a signalled web process before it sends SIGKILL. */
const STOP_GRACE_MS = 10_000;

/**
 * How many web processes to run: WEB_CONCURRENCY when set (a positive integer), else one per core
 * (os.availableParallelism()). On the embedded database the default is one: PGlite runs inside the
 * `npm start` process and executes one statement at a time on its single thread, so a second web
 * process would only take CPU from it (WEB_CONCURRENCY still overrides, as the database is reached
 * over its socket like any PostgreSQL).
 */
export function webProcessCount(env: Readonly<Record<string, string | undefined>>, options: { readonly embedded: boolean; readonly cores?: number }): number {
  const configured = env.WEB_CONCURRENCY?.trim();
  if (configured) {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 1) throw new Error(`WEB_CONCURRENCY must be a positive integer, not "${configured}"`);
    return n;
  }
  if (options.embedded) return 1;
  return Math.max(1, options.cores ?? os.availableParallelism());
}

/** Starts `spec.processes` web processes as cluster workers of this process, and keeps them running. */
export function startWebCluster(spec: WebClusterSpec, options: WebClusterOptions): WebCluster {
  if (!cluster.isPrimary) throw new Error("startWebCluster must run in the cluster's primary process");
  const { log } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const upAfterMs = options.upAfterMs ?? 5_000;

  // Round robin in this process spreads connections evenly; the kernel's own choice (SCHED_NONE)
  // is known to be lopsided. With one web process there is nothing to spread: that process
  // accepts its connections itself, so this process (which may be running the embedded database)
  // is not in the path. Both must be chosen before the first fork.
  cluster.schedulingPolicy = spec.processes > 1 ? cluster.SCHED_RR : cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: spec.exec, args: [...spec.args], execArgv: [...spec.execArgv] });

  interface Slot {
    readonly index: number;
    worker: Worker | null;
    startedAt: number;
    attempt: number;
    timer?: NodeJS.Timeout;
  }
  const slots: Slot[] = Array.from({ length: spec.processes }, (_, index) => ({ index, worker: null, startedAt: 0, attempt: 0 }));
  let stopping = false;
  let up = false;
  let failed = false;
  let restarts = 0;
  const exits = new Map<Worker, Promise<void>>();
  const upTimers = new Set<NodeJS.Timeout>();

  const service = process.env.ORDEROPS_SERVICE ?? "orderops";
  const fork = (slot: Slot): void => {
    slot.startedAt = Date.now();
    // Each web process names itself in its log lines and its database connections
    // (application_name), so pg_stat_activity and the logs tell them apart.
    const worker = cluster.fork({ ...spec.env, WEB_PROCESS: String(slot.index + 1), ORDEROPS_SERVICE: `${service}-web-${slot.index + 1}` });
    slot.worker = worker;
    exits.set(worker, new Promise<void>((resolve) => worker.once("exit", () => resolve())));
    worker.once("online", () => log.info({ child: "web", slot: slot.index + 1, pid: worker.process.pid }, "web process started"));
    worker.once("listening", () => {
      if (up) return;
      const timer = setTimeout(() => {
        upTimers.delete(timer);
        if (slot.worker === worker && !worker.isDead()) up = true;
      }, upAfterMs);
      upTimers.add(timer);
    });
    worker.once("exit", (code, signal) => {
      exits.delete(worker);
      if (slot.worker === worker) slot.worker = null;
      if (stopping || failed) return;
      const uptimeMs = Date.now() - slot.startedAt;
      if (!up) {
        failed = true;
        options.onCannotStart({ child: "web", slot: slot.index + 1, code, signal, uptimeMs });
        return;
      }
      if (uptimeMs >= backoff.resetAfterMs) slot.attempt = 0;
      const restartInMs = restartDelayMs(backoff, slot.attempt++);
      log.warn({ child: "web", slot: slot.index + 1, code, signal, uptimeMs, restartInMs }, "web process exited; restarting it while the others serve");
      slot.timer = setTimeout(() => {
        slot.timer = undefined;
        if (stopping) return;
        restarts++;
        fork(slot);
      }, restartInMs);
    });
  };
  for (const slot of slots) fork(slot);

  return {
    pids: () => slots.flatMap((s) => (s.worker && !s.worker.isDead() && s.worker.process.pid !== undefined ? [s.worker.process.pid] : [])),
    restarts: () => restarts,
    async stop(signal = "SIGTERM") {
      stopping = true;
      for (const timer of upTimers) clearTimeout(timer);
      for (const slot of slots) clearTimeout(slot.timer);
      const running = [...exits.entries()];
      for (const [worker] of running) worker.process.kill(signal);
      const kill = setTimeout(() => {
        for (const [worker] of running) if (!worker.isDead()) worker.process.kill("SIGKILL");
      }, STOP_GRACE_MS);
      await Promise.all(running.map(([, exited]) => exited));
      clearTimeout(kill);
    },
  };
}
