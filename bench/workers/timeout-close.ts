// One worker's timeout-close run, in its own process: closeExpiredOrders() with the worker's own
// defaults (batches of 200, each one transitBatch() transaction; pool DATABASE_POOL_SIZE, 20 in worker-main).
import { closeExpiredOrders, type TimeoutCloseReport } from "@/lib/jobs/timeout-close";
import { closePool, getPool } from "@/lib/db/pool";
import { DEADLINE_ENV, workerMain } from "../lib/child";

export interface TimeoutCloseRun {
  readonly report: TimeoutCloseReport;
  readonly ms: number;
  /** The deadline stopped it before it had closed everything. */
  readonly stoppedEarly: boolean;
}

workerMain<TimeoutCloseRun>(
  async () => {
    // Open the pool's connections before the clock starts.
    const clients = await Promise.all(Array.from({ length: 9 }, () => getPool().connect()));
    clients.forEach((c) => c.release());
  },
  async () => {
    const t0 = performance.now();
    const signal = AbortSignal.timeout(Number(process.env[DEADLINE_ENV] ?? 600_000));
    const report = await closeExpiredOrders({ pool: getPool(), signal });
    return { report, ms: performance.now() - t0, stoppedEarly: signal.aborted };
  },
  closePool,
);
