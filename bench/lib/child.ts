// Benchmark workers as separate processes (a worker is its own process in production, and a
// load generator in the same event loop would slow the job it measures). The parent forks a
// script under bench/workers/, waits for "ready", sends "go" to all at once, and collects "done".
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { BENCH_DIR } from "./runner";

export interface ChildDone<T> {
  readonly type: "done";
  readonly result: T;
}

/** How long a worker may work (ms), from "go": it then stops after the batch in hand. */
export const DEADLINE_ENV = "BENCH_DEADLINE_MS";

export interface WorkerChild<T> {
  readonly process: ChildProcess;
  /** Resolves with the worker's result; rejects if it fails or exits first. */
  readonly done: Promise<T>;
  go(): void;
}

export async function forkWorker<T>(script: string, env: Record<string, string>): Promise<WorkerChild<T>> {
  const child = fork(path.join(BENCH_DIR, "workers", script), [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on("message", (message: { type: string }) => {
      if (message.type === "ready") resolve();
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
  });
  const done = new Promise<T>((resolve, reject) => {
    child.on("message", (message: { type: string; result?: T; error?: string }) => {
      if (message.type === "done") resolve(message.result as T);
      if (message.type === "error") reject(new Error(`${script}: ${message.error}`));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with code ${code}`)));
  });
  done.catch(() => undefined);
  await ready;
  return { process: child, done, go: () => child.send({ type: "go" }) };
}

/** In a worker script: announce readiness, wait for "go", run, report, exit. */
export function workerMain<T>(prepare: () => Promise<void>, work: () => Promise<T>, cleanup: () => Promise<void>): void {
  const send = (message: object) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
  // A worker never outlives the benchmark that forked it.
  process.on("disconnect", () => process.exit(1));
  const main = async () => {
    await prepare();
    const go = new Promise<void>((resolve) =>
      process.on("message", (message: { type: string }) => {
        if (message.type === "go") resolve();
      }),
    );
    await send({ type: "ready" });
    await go;
    const result = await work();
    await cleanup();
    await send({ type: "done", result });
    process.exit(0);
  };
  main().catch(async (error: unknown) => {
    await send({ type: "error", error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  });
}
