import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import { sealCheckpoint } from "@/lib/audit/checkpoint";
import { sweepDeliveryCases } from "@/lib/cases/settle";
import { sweepRateWindows } from "@/lib/db/rate-window";
import { sweepPresence } from "@/lib/presence/order-presence";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { logger } from "@/lib/log";
import { coordinateDeliveries, type DeliveryReport } from "./delivery-coordinator";
import { relayOutbox, type RelayReport } from "./outbox-relay";
import { runRefundReviews, type RefundReviewReport } from "./refund-reviews";
import { runTakeBackCalls, type TakeBackCallReport } from "./take-back-calls";
import { closeExpiredOrders, type TimeoutCloseReport } from "./timeout-close";
import { pollVoidedPurchases, type VoidedPollReport } from "./voided-purchases-poll";

export const JOB_NAMES = ["timeout-close", "delivery", "outbox-relay", "audit-checkpoint", "cases", "refund-reviews", "voided-purchases", "take-backs", "rate-windows", "presence"] as const;
export type JobName = (typeof JOB_NAMES)[number];
/** The audit checkpoint's run, in numbers like the other jobs' reports. */
export interface CheckpointCounts {
  readonly chains: number;
  readonly facts: number;
  readonly broken: number;
}
/** The case sweep's run: goods cases closed because their order no longer owes anything. */
export interface CaseSweepCounts {
  readonly resolved: number;
}
/** The rate window sweep's run: windows deleted that ended long ago (lib/db/rate-window.ts). */
export interface RateWindowSweepCounts {
  readonly deleted: number;
}
export type JobReport =
  | TimeoutCloseReport
  | DeliveryReport
  | RelayReport
  | CheckpointCounts
  | CaseSweepCounts
  | RefundReviewReport
  | VoidedPollReport
  | TakeBackCallReport
  | RateWindowSweepCounts;

export interface WorkerOptions {
  /** Abort to stop: each job finishes the batch in hand, then the worker returns. */
  readonly signal: AbortSignal;
  /** The pause after a run that found nothing more to do. */
  readonly intervalMs?: number;
  /** The pause between audit checkpoints (lib/audit/checkpoint.ts). Default one minute. */
  readonly checkpointIntervalMs?: number;
  readonly relayBatchSize?: number;
  /**
   * Attempts before a webhook message is dead (default the relay's own, MAX_CALL_ATTEMPTS). The
   * embedded demo sets fewer (OUTBOX_MAX_ATTEMPTS, scripts/start.ts), so its dead messages die while
   * someone watches.
   */
  readonly relayMaxAttempts?: number;
  /** The pause between looks for tenants due a Voided Purchases poll (each is polled every 15 minutes). Default one minute. */
  readonly voidedPollCheckMs?: number;
  /** The pause between sweeps of rate windows that ended long ago. Default one minute. */
  readonly rateWindowSweepMs?: number;
  /** The pause between sweeps of presence rows whose tab stopped polling (lib/presence/order-presence.ts). Default one minute. */
  readonly presenceSweepMs?: number;
  readonly fetch?: typeof globalThis.fetch;
  readonly pool?: pg.Pool;
  /** Called with every run's counts (benchmarks, tests). */
  readonly onReport?: (job: JobName, report: JobReport) => void;
  /** Called with every run that threw, after it is logged (tests). */
  readonly onError?: (job: JobName, error: unknown) => void;
}

const log = logger.child({ component: "worker" });
const TAKE_BACK_BATCH = 50;
const RATE_WINDOW_BATCH = 10_000;
const PRESENCE_BATCH = 10_000;

/**
 * Runs the background jobs until `signal` aborts: timeout close, delivery, the outbox relay, the
 * audit checkpoint (verify and seal what was written since the last one, once a minute), the
 * case sweep (goods cases whose order no longer owes anything are resolved by the system), and the Google Play
 * Voided Purchases poll (voided-purchases-poll.ts: each connected tenant every 15 minutes), the calls to the game
 * that take goods back after a refund or give them back after its reversal (take-back-calls.ts), and the sweep of
 * rate windows that ended long ago (lib/db/rate-window.ts: an address spray leaves a row per address). Each job has its own loop, so a long
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
      const report = await relayOutbox({ pool, fetch, batchSize: relayBatchSize, ...(options.relayMaxAttempts ? { maxAttempts: options.relayMaxAttempts } : {}) });
      return { report, more: report.claimed === relayBatchSize };
    },
    "audit-checkpoint": async () => {
      const report = await sealCheckpoint(pool);
      if (report.result === "sealed") return { report: { chains: report.chains, facts: report.facts, broken: 0 }, more: report.more };
      return { report: { chains: 0, facts: 0, broken: report.result === "broken" ? 1 : 0 }, more: false };
    },
    cases: async () => ({ report: { resolved: await sweepDeliveryCases({ pool }) }, more: false }),
    "refund-reviews": async () => ({ report: await runRefundReviews({ pool }), more: false }),
    "voided-purchases": async () => ({ report: await pollVoidedPurchases({ pool, fetch }), more: false }),
    "take-backs": async () => {
      const report = await runTakeBackCalls({ pool, fetch, batchSize: TAKE_BACK_BATCH });
      return { report, more: report.claimed === TAKE_BACK_BATCH };
    },
    "rate-windows": async () => {
      const deleted = await sweepRateWindows(pool, RATE_WINDOW_BATCH);
      return { report: { deleted }, more: deleted === RATE_WINDOW_BATCH };
    },
    presence: async () => {
      const deleted = await sweepPresence(pool, PRESENCE_BATCH);
      return { report: { deleted }, more: deleted === PRESENCE_BATCH };
    },
  };
  const pause: Record<JobName, number> = {
    "timeout-close": options.intervalMs ?? 1000,
    delivery: options.intervalMs ?? 1000,
    "outbox-relay": options.intervalMs ?? 1000,
    "audit-checkpoint": options.checkpointIntervalMs ?? 60_000,
    // Goods cases close within seconds of the delivery that ends them; the sweep reads only active cases.
    cases: options.intervalMs ?? 1000,
    // Store refund reviews expire, or are answered for tenants that opted in, within their deadline's last hour.
    "refund-reviews": options.intervalMs ?? 1000,
    "voided-purchases": options.voidedPollCheckMs ?? 60_000,
    // Calls a refund owes the game (take-back-calls.ts): like the relay, again at once while batches come back full.
    "take-backs": options.intervalMs ?? 1000,
    // Ended windows are kept an hour anyway; once a minute keeps the table near that, and a full
    // batch (a spray's leftovers) goes again at once.
    "rate-windows": options.rateWindowSweepMs ?? 60_000,
    // Open order pages delete their own order's expired rows as they poll; this catches the orders
    // nobody has open any more (a closed laptop, a dead node), so the table stays the size of what is open.
    presence: options.presenceSweepMs ?? 60_000,
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
          // A database that went away (a restart, a cut connection) is expected weather, not a bug.
          if (isDatabaseUnavailable(error)) log.warn({ err: error, job }, "database unavailable; trying again after the pause");
          else log.error({ err: error, job }, "job failed; trying again after the pause");
          options.onError?.(job, error);
        }
        if (!more) await sleep(pause[job], undefined, { signal }).catch(() => undefined);
      }
    }),
  );
  log.info("worker stopped");
}
