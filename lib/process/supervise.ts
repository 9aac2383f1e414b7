import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

// `npm start` runs the web server, the worker and (on the demo database) the simulator as child
// processes. The worker and the simulator may die — a bug, an out-of-memory kill, a database that
// went away at the wrong moment — and the console must not die with them: each is started again
// after a pause. The pause doubles while the child keeps dying young (a crash loop must not spin the
// CPU or flood the log) up to a cap, and starts small again once a child has stayed up a while.

export interface Backoff {
  /** The pause before the first restart. */
  readonly initialMs: number;
  /** Pauses double up to this. */
  readonly maxMs: number;
  /** A child that stayed up this long was healthy: its next restart pauses initialMs again. */
  readonly resetAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };

/** The logger's shape this needs (pino's fits). */
export interface SupervisorLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface ChildSpec {
  /** For the log: "worker", "simulator". */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly options?: SpawnOptions;
}

export interface Supervised {
  /** The running process; null while waiting to restart it. */
  current(): ChildProcess | null;
  /** Restarts so far. */
  restarts(): number;
  /** No more restarts: signals the running child and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** How long stop() waits for a signalled child before it sends SIGKILL. */
const STOP_GRACE_MS = 10_000;

/** The pause before restart number `attempt` (0-based) of a child that keeps dying young. */
export function restartDelayMs(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt);
}

/** Runs `spec` and starts it again, after a backoff pause, every time it exits — until stop(). */
export function keepRunning(spec: ChildSpec, options: { readonly log: SupervisorLog; readonly backoff?: Backoff }): Supervised {
  const { log } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let child: ChildProcess | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let attempt = 0;
  let restarts = 0;
  let exited: Promise<void> = Promise.resolve();

  const start = (): void => {
    const startedAt = Date.now();
    const running = spawn(spec.command, [...spec.args], spec.options ?? {});
    child = running;
    exited = new Promise<void>((resolve) => {
      let ended = false;
      const end = (code: number | null, signal: NodeJS.Signals | null, error?: Error): void => {
        if (ended) return;
        ended = true;
        child = null;
        resolve();
        if (stopping) return;
        const uptimeMs = Date.now() - startedAt;
        if (uptimeMs >= backoff.resetAfterMs) attempt = 0;
        const restartInMs = restartDelayMs(backoff, attempt++);
        log.warn({ child: spec.name, code, signal, err: error, uptimeMs, restartInMs }, `${spec.name} exited; restarting it`);
        timer = setTimeout(() => {
          restarts++;
          start();
        }, restartInMs);
      };
      running.once("exit", (code, signal) => end(code, signal));
      // A command that cannot be started at all reports only this (and must not throw: unheard, an
      // 'error' event would take the supervisor down with it).
      running.on("error", (error) => {
        if (running.pid === undefined) end(null, null, error);
      });
    });
    if (running.pid !== undefined) log.info({ child: spec.name, pid: running.pid }, `${spec.name} started`);
  };

  start();
  return {
    current: () => child,
    restarts: () => restarts,
    async stop(signal = "SIGTERM") {
      stopping = true;
      clearTimeout(timer);
      const running = child;
      if (!running) return;
      running.kill(signal);
      const kill = setTimeout(() => running.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(kill);
    },
  };
}
