// 1. transit() throughput against pgbench running the same SQL on the same database, same run.
//
// 16 concurrent transit() calls, each client paying its own `created` orders (distinct orders: no
// lock waits), through a pool of 16 connections; then pgbench with 16 clients running
// bench/transit.pgbench.sql — the same five statements — on other orders of the same table. The
// rounds alternate A B B A (transit, pgbench, pgbench, transit) so that a table growing and a
// neighbour's load drifting weigh on both sides alike; the ratio is total over total.
import path from "node:path";
import { transit } from "@/lib/orders/transit";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { benchPool, withFreshDatabase } from "./lib/db";
import { insertCreatedOrders, type BulkOrders } from "./lib/orders";
import { runPgbench } from "./lib/pgbench";
import { BENCH_DIR, isMain, runAlone, type Bench } from "./lib/runner";
import { count, ms, perSecond, summarize, totalRate, type Round as StatsRound } from "./lib/stats";

const CLIENTS = 16;
const TENANT = "bench";
const AMOUNT = 6_00;
const REASON = "bench";
const ACTOR = "channel:alipay";
/** Orders set aside per client per round: far more than one client can pay in a round. */
const STRIDE = 1_500;

type Round = StatsRound<"transit" | "pgbench" | "pgbench-prepared" | "pgbench-async">;

export const transitBench: Bench = {
  name: "transit",
  title: "1. transit() vs pgbench (same SQL, 16 clients, distinct orders)",
  async run({ args, log }) {
    const seconds = args.quick ? 4 : 6;
    const contextSeconds = 4;
    // The ratio: rounds in the order A B B A A B B A, so that drift (a table that grows, a
    // neighbour's load) weighs on both sides alike. Then context for proposed changes, three
    // cycles of pgbench with the SQL as sent now, as named (prepared) statements, and with
    // synchronous_commit off: each compared with the plain round of its own cycle.
    const ratioPlan: Round["side"][] = ["transit", "pgbench", "pgbench", "transit", "transit", "pgbench", "pgbench", "transit"];
    const contextPlan: Round["side"][] = [0, 1, 2].flatMap((): Round["side"][] => ["pgbench", "pgbench-prepared", "pgbench-async"]);
    const plan = [...ratioPlan, ...contextPlan];
    return withFreshDatabase("transit", async (db) => {
      const pool = benchPool(db.url, CLIENTS, "bench-transit");
      try {
        await ensureTenant(pool, tenantSpec(TENANT));
        // One block of orders per round (plus a warm-up block), each split into per-client strides.
        const blocks: BulkOrders[] = [];
        for (let r = 0; r <= plan.length; r++) {
          blocks.push(
            await insertCreatedOrders(pool, { tenantId: TENANT, count: CLIENTS * STRIDE, orderNoPrefix: `R${r}-`, createdAt: new Date(), amount: AMOUNT }),
          );
        }
        await pool.query(`VACUUM ANALYZE orders, order_lines`);
        // The setup's writes are flushed now, not by a checkpoint in the middle of the measurement.
        await pool.query(`CHECKPOINT`);
        log(`${count(blocks.length * CLIENTS * STRIDE)} orders ready`);

        const runTransit = async (block: (typeof blocks)[number], secs: number): Promise<Round> => {
          const latencies: number[] = [];
          const outcomes = new Map<string, number>();
          const deadline = performance.now() + secs * 1000;
          const t0 = performance.now();
          await Promise.all(
            Array.from({ length: CLIENTS }, async (_, client) => {
              for (let n = 1; n <= STRIDE && performance.now() < deadline; n++) {
                const orderId = block.firstId + client * STRIDE + n - 1;
                const start = performance.now();
                const result = await transit(
                  { orderId, event: "pay", bizKey: String(orderId), amount: AMOUNT, actor: ACTOR, source: "callback", reason: REASON },
                  pool,
                );
                latencies.push(performance.now() - start);
                outcomes.set(result.result, (outcomes.get(result.result) ?? 0) + 1);
              }
            }),
          );
          const elapsed = (performance.now() - t0) / 1000;
          const applied = outcomes.get("applied") ?? 0;
          if (applied !== latencies.length) throw new Error(`transit: not every call applied: ${JSON.stringify([...outcomes])}`);
          const s = summarize(latencies);
          return { side: "transit", transactions: applied, seconds: elapsed, tps: applied / elapsed, detail: `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}` };
        };

        const script = path.join(BENCH_DIR, "transit.pgbench.sql");
        const runBench = async (block: (typeof blocks)[number], secs: number, side: Round["side"]): Promise<Round> => {
          const result = await runPgbench({
            ...(side === "pgbench-prepared" ? { mode: "prepared" as const } : {}),
            ...(side === "pgbench-async" ? { sessionOptions: "-c synchronous_commit=off" } : {}),
            databaseUrl: db.url,
            script,
            clients: CLIENTS,
            threads: 2,
            seconds: secs,
            variables: {
              n: 0,
              // pgbench numbers clients from 0 and the script adds n = 1, 2, … to the client's stride.
              base: block.firstId - 1,
              stride: STRIDE,
              to: "paid",
              actor: ACTOR,
              source: "callback",
              reason: REASON,
              refundfrom: "false",
              lines: "false",
              history: "false",
              empty: "{}",
              prefix: "refund:",
            },
          });
          if (result.failed > 0) throw new Error(`pgbench: ${result.failed} failed transactions`);
          // Every pgbench transaction must have done what transit does: one transition, the order paid, one message.
          const { rows } = await pool.query<{ transitions: number; paid: number; messages: number }>(
            `SELECT (SELECT count(*) FROM order_transitions WHERE order_id BETWEEN $1 AND $2)::int AS transitions,
                    (SELECT count(*) FROM orders WHERE id BETWEEN $1 AND $2 AND state = 'paid' AND version = 1)::int AS paid,
                    (SELECT count(*) FROM outbox_messages WHERE order_id BETWEEN $1 AND $2)::int AS messages`,
            [block.firstId, block.lastId],
          );
          const check = rows[0]!;
          if (check.transitions !== result.transactions || check.paid !== result.transactions || check.messages !== result.transactions) {
            throw new Error(`pgbench did not do what transit does: ${result.transactions} transactions, ${JSON.stringify(check)}`);
          }
          return {
            side,
            transactions: result.transactions,
            seconds: result.transactions / result.tps,
            tps: result.tps,
            detail: `latency average ${ms(result.latencyMs)}`,
          };
        };

        // Warm-up (JIT, caches, connections), not counted: half a block each.
        log("warm-up");
        await runTransit(blocks[0]!, 2);
        const rounds: Round[] = [];
        for (const [i, side] of plan.entries()) {
          const block = blocks[i + 1]!;
          const secs = i < ratioPlan.length ? seconds : contextSeconds;
          const round = side === "transit" ? await runTransit(block, secs) : await runBench(block, secs, side);
          log(`${side}: ${perSecond(round.tps)} (${round.detail})`);
          rounds.push(round);
        }

        const ratioRounds = rounds.slice(0, ratioPlan.length);
        const total = (side: Round["side"]) => totalRate(ratioRounds, side);
        const transitTps = total("transit");
        const pgbenchTps = total("pgbench");
        const ratio = transitTps / pgbenchTps;
        const cycles = [0, 1, 2].map((c) => rounds.slice(ratioPlan.length + 3 * c, ratioPlan.length + 3 * c + 3));
        const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
        const prepared = median(cycles.map((c) => c[1]!.tps / c[0]!.tps));
        const asyncCommit = median(cycles.map((c) => c[2]!.tps / c[0]!.tps));
        return {
          metrics: [
            { name: "transit() throughput", value: perSecond(transitTps) },
            { name: "pgbench throughput (same SQL)", value: perSecond(pgbenchTps) },
            { name: "ratio transit / pgbench", value: ratio.toFixed(2), target: "≥ 0.8", met: ratio >= 0.8 },
            { name: "context: pgbench with prepared statements / unnamed (median of 3 cycles)", value: prepared.toFixed(2) },
            { name: "context: pgbench with synchronous_commit off / on (median of 3 cycles)", value: asyncCommit.toFixed(2) },
          ],
          notes: [
            `${CLIENTS} clients each paying its own \`created\` orders (\`pay\` with a matching amount: lock, duplicate check, guard, transition + compare-and-set + outbox, commit); transit() through a pg pool of ${CLIENTS}, pgbench \`-M extended -c ${CLIENTS} -j 2\` with bench/transit.pgbench.sql.`,
            `Ratio: rounds of ${seconds} s in the order transit, pgbench, pgbench, transit, transit, pgbench, pgbench, transit after a 2 s transit warm-up, total over total: ${ratioRounds.map((r) => `${r.side} ${perSecond(r.tps)} (${r.detail})`).join("; ")}.`,
            `Context: three cycles of ${contextSeconds} s rounds of pgbench as above, with \`-M prepared\` and with \`synchronous_commit=off\`, each divided by its cycle's plain round: ${cycles.map((c) => c.map((r) => `${r.side} ${perSecond(r.tps)}`).join(", ")).join("; ")}.`,
            "Every transit() call returned `applied`; every pgbench transaction was checked to have written one transition, paid its order and written one outbox message.",
          ],
        };
      } finally {
        await pool.end();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(transitBench);
