// 5. Timeout close: one worker closing 100,000 expired unpaid orders (closeExpiredOrders, in its
// own process, with the worker's defaults) while payment callbacks keep arriving for other
// orders through transit() (in this process, on a pool of its own: the web server's share).
//
// The payments run open-loop at a fixed rate — a callback arrives whether or not the previous one
// has been answered — first for a few seconds alone (the baseline), then while the job runs.
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { DEMO_TENANTS, ensureTenant } from "@/lib/seed/tenants";
import { DEADLINE_ENV, forkWorker } from "./lib/child";
import { benchPool, withFreshDatabase } from "./lib/db";
import { insertCreatedOrders } from "./lib/orders";
import type { Metric } from "./lib/results";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { count, ms, perSecond, sleep, summarize } from "./lib/stats";
import type { TimeoutCloseRun } from "./workers/timeout-close";

const TARGET_RATE = 1_000;
const TARGET_P99_MS = 100;
const PAY_RATE = 200;
const AMOUNT = 6_00;
/** The job stops after this (after the batch in hand) and its rate is taken over what it closed. */
const DEADLINE_S = 300;

interface PayLoad {
  stop(): Promise<{ latencies: number[]; outcomes: Map<string, number>; shed: number }>;
}

/** Callbacks in flight at most: past this the machine is not keeping up, and more would only queue. */
const MAX_IN_FLIGHT = 100;

/**
 * Pays orders from `next()` at `rate` per second until stopped. Open loop: each callback is due at
 * its own time, and its latency counts from then (a callback that waited to be sent waited). When
 * MAX_IN_FLIGHT are already waiting, a due callback is not sent but counted as shed — an
 * overloaded machine then shows as shed calls instead of a queue that outlives the benchmark.
 */
function payLoad(pool: ReturnType<typeof benchPool>, next: () => number, rate: number): PayLoad {
  const latencies: number[] = [];
  const outcomes = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let shed = 0;
  const started = performance.now();
  let sent = 0;
  const tick = async () => {
    while (!stopped) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate);
      while (sent < due) {
        const dueAt = started + (sent / rate) * 1000;
        sent++;
        if (inFlight.size >= MAX_IN_FLIGHT) {
          shed++;
          continue;
        }
        const orderId = next();
        const call = transit(
          { orderId, event: "pay", bizKey: `alipay-${orderId}`, amount: AMOUNT, actor: "channel:alipay", source: "callback" },
          pool,
        ).then(
          (result) => {
            latencies.push(performance.now() - dueAt);
            outcomes.set(result.result, (outcomes.get(result.result) ?? 0) + 1);
          },
          () => void outcomes.set("error", (outcomes.get("error") ?? 0) + 1),
        );
        inFlight.add(call);
        void call.finally(() => inFlight.delete(call));
      }
      await sleep(2);
    }
  };
  // A failure (no order left to pay) stops the load and is reported by stop(), never left unhandled.
  let failure: unknown = null;
  const loop = tick().catch((error: unknown) => {
    failure = error;
    stopped = true;
  });
  return {
    async stop() {
      stopped = true;
      await loop;
      if (failure !== null) throw failure;
      await Promise.all(inFlight);
      return { latencies, outcomes, shed };
    },
  };
}

export const timeoutCloseBench: Bench = {
  name: "timeout-close",
  title: "5. Timeout close: 100,000 expired orders while payments arrive",
  async run({ args, log }) {
    const expired = args.quick ? 20_000 : 100_000;
    const baselineSeconds = args.quick ? 3 : 5;
    return withFreshDatabase("timeout_close", async (db) => {
      const tenant = DEMO_TENANTS[0]!; // xiaoxiao: unpaid orders close after 30 minutes
      await ensureTenant(getPool(), tenant);
      const old = await insertCreatedOrders(getPool(), {
        tenantId: tenant.id,
        count: expired,
        orderNoPrefix: "EXP-",
        createdAt: new Date(Date.now() - 2 * 3600_000),
        amount: AMOUNT,
      });
      // Fresh orders for the callbacks: created just now, far from their timeout.
      const fresh = await insertCreatedOrders(getPool(), {
        tenantId: tenant.id,
        count: PAY_RATE * (DEADLINE_S + 60),
        orderNoPrefix: "NEW-",
        createdAt: new Date(),
        amount: AMOUNT,
      });
      await getPool().query(`VACUUM ANALYZE orders, order_lines`);
      // The setup's writes are flushed now, not by a checkpoint in the middle of the measurement.
      await getPool().query(`CHECKPOINT`);
      log(`${count(expired)} expired and ${count(fresh.count)} fresh orders ready`);

      const web = benchPool(db.url, 10, "bench-web");
      let nextFresh = fresh.firstId;
      const nextOrder = () => {
        if (nextFresh > fresh.lastId) throw new Error("ran out of fresh orders to pay");
        return nextFresh++;
      };
      try {
        const worker = await forkWorker<TimeoutCloseRun>("timeout-close.ts", {
          DATABASE_URL: db.url,
          DATABASE_POOL_SIZE: "20",
          [DEADLINE_ENV]: String(DEADLINE_S * 1000),
        });
        // Baseline: payments alone.
        const alone = payLoad(web, nextOrder, PAY_RATE);
        await sleep(baselineSeconds * 1000);
        const baseline = await alone.stop();

        const during = payLoad(web, nextOrder, PAY_RATE);
        worker.go();
        const run = await worker.done;
        const paid = await during.stop();

        const { rows } = await getPool().query<{ closed: number; created: number; transitions: number }>(
          `SELECT count(*) FILTER (WHERE state = 'closed')::int AS closed, count(*) FILTER (WHERE state = 'created')::int AS created,
                  (SELECT count(*) FROM order_transitions WHERE order_id BETWEEN $1 AND $2 AND event = 'close')::int AS transitions
           FROM orders WHERE id BETWEEN $1 AND $2`,
          [old.firstId, old.lastId],
        );
        const check = rows[0]!;
        const all = run.stoppedEarly ? run.report.closed : expired;
        if (check.closed !== all || check.transitions !== all || run.report.closed !== all || check.closed + check.created !== expired) {
          throw new Error(`expected ${all} expired orders closed once: job ${JSON.stringify(run.report)}, database ${JSON.stringify(check)}`);
        }
        const rate = run.report.closed / (run.ms / 1000);
        const b = summarize(baseline.latencies);
        const d = summarize(paid.latencies);
        const payErrors = (paid.outcomes.get("error") ?? 0) + (baseline.outcomes.get("error") ?? 0);
        const notApplied = paid.latencies.length - (paid.outcomes.get("applied") ?? 0);
        log(`${perSecond(rate)} closes; pay p99 ${ms(d.p99)} (alone ${ms(b.p99)})`);
        const metrics: Metric[] = [
          { name: "closes per second (one worker)", value: perSecond(rate), target: `≥ ${count(TARGET_RATE)}/s`, met: rate >= TARGET_RATE },
          {
            name: "pay callback latency p99 while closing",
            value: `${ms(d.p99)} (p50 ${ms(d.p50)}, p95 ${ms(d.p95)})`,
            target: `< ${TARGET_P99_MS} ms`,
            met: d.p99 < TARGET_P99_MS && payErrors === 0 && notApplied === 0 && paid.shed === 0,
          },
          { name: "pay callback latency p99 alone (baseline, same run)", value: `${ms(b.p99)} (p50 ${ms(b.p50)})` },
        ];
        return {
          metrics,
          notes: [
            `${count(expired)} \`created\` orders of xiaoxiao (30 min timeout) created 2 h ago; closeExpiredOrders() once, in its own process with the worker's defaults (batches of 200 claimed with advisory locks, each closed by one transitBatch() transaction, pool of 20): ${count(run.report.closed)} closed in ${(run.ms / 1000).toFixed(1)} s (${JSON.stringify(run.report)}); the database shows every one closed once.${run.stoppedEarly ? ` **Stopped at the ${DEADLINE_S} s deadline with ${count(check.created)} still open**: the rate is over what it closed.` : ""}`,
            `Payments: ${PAY_RATE}/s open-loop \`pay\` callbacks through transit() on fresh orders, pool of 10 (a web server's), in the benchmark process: ${count(baseline.latencies.length)} alone for ${baselineSeconds} s, then ${count(paid.latencies.length)} while the job ran; all \`applied\`${payErrors + notApplied > 0 ? ` except **${payErrors} errors, ${notApplied} not applied**` : ""}. Latency counts from each callback's due time.${paid.shed + baseline.shed > 0 ? ` **${count(paid.shed + baseline.shed)} callbacks shed** (not sent: ${MAX_IN_FLIGHT} were already waiting — the machine did not keep up with ${PAY_RATE}/s).` : ""}`,
          ],
        };
      } finally {
        await web.end();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(timeoutCloseBench);
