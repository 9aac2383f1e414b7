import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import { logger } from "@/lib/log";
import { coordinateDeliveries, type DeliveryReport } from "./delivery-coordinator";
import { relayOutbox, type RelayReport } from "./outbox-relay";
import { closeExpiredOrders, type TimeoutCloseReport } from "./timeout-close";

export const JOB_NAMES = ["timeout-close", "delivery", "outbox-relay"] as const;
export type JobName = (typeof JOB_NAMES)[number];
export type JobReport = TimeoutCloseReport | DeliveryReport | RelayReport;

export interface WorkerOptions {
  /** Abort to stop: each job finishes the batch in hand, then the worker returns. */
  readonly signal: AbortSignal;
  /** The pause after a run that found nothing more to do. */
  readonly intervalMs?: number;
  readonly relayBatchSize?: number;
  readonly fetch?: typeof globalThis.fetch;
  readonly pool?: pg.Pool;
  /** Called with every run's counts (benchmarks, tests). */
  readonly onReport?: (job: JobName, report: JobReport) => void;
}

const log = logger.child({ component: "worker" });

/**
 * Runs the three background jobs until `signal` aborts. Each job has its own loop, so a long
 * timeout-close backlog never holds up deliveries or webhooks: timeout close and the delivery
 * coordinator drain what is due and then pause; the relay goes again at once while its batches come
 * back full. A job that throws (database down) is logged and tried again after the pause.
 *
 * Any number of workers may run against one database: the jobs claim their work (see claim.ts and
 * the relay's lease), and everything they do is idempotent besides.
 */
export async function runWorker(options: WorkerOptions): Promise<void> {
  const { signal } = options;
  const pool = options.pool ?? getPool();
  const fetch = options.fetch ?? globalThis.fetch;
  const relayBatchSize = options.relayBatchSize ?? 100;

  const jobs: Record<JobName, () => Promise<{ report: JobReport; more: boolean }>> = {
    "timeout-close": async () => ({ report: await closeExpiredOrders({ signal, pool }), more: false }),
    delivery: async () => ({ report: await coordinateDeliveries({ signal, pool, fetch }), more: false }),
    "outbox-relay": async () => {
      const report = await relayOutbox({ pool, fetch, batchSize: relayBatchSize });
      return { report, more: report.claimed === relayBatchSize };
    },
  };

  log.info({ intervalMs: options.intervalMs ?? 1000 }, "worker started");
  await Promise.all(
    JOB_NAMES.map(async (job) => {
      while (!signal.aborted) {
        let more = false;
        try {
          const run = await jobs[job]();
          more = run.more;
          options.onReport?.(job, run.report);
          if (Object.values(run.report).some((n: number) => n > 0)) log.info({ job, ...run.report }, "job ran");
        } catch (error) {
          log.error({ err: error, job }, "job failed; trying again after the pause");
        }
        if (!more) await sleep(options.intervalMs ?? 1000, undefined, { signal }).catch(() => undefined);
      }
    }),
  );
  log.info("worker stopped");
}
