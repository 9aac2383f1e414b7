// 1. transit() throughput against pgbench running the same SQL on the same database, same run.
//
// 16 concurrent transit() calls, each client paying its own `created` orders (distinct orders: no
// lock waits), through a pool of 16 connections; then pgbench with 16 clients running
// bench/transit.pgbench.sql — the same five statements — prepared (-M prepared: the database's
// ceiling for this SQL, as transit's statements are prepared too) on other orders of the same
// table. The rounds alternate A B B A (transit, pgbench, pgbench, transit) so that a table growing
// and a neighbour's load drifting weigh on both sides alike; the ratio is total over total.
//
// Then cycles of four pgbench rounds, in an order that turns each cycle, for what the pay costs and
// what it could cost: the same SQL prepared; unnamed (-M extended: parsed and planned every time);
// prepared without the audit chain (the script with its chain parts cut out, the chain trigger off
// on this benchmark's own database: the chain's share of a pay); and the minimal pay transaction on
// bare tables (bench/minimal-pay.pgbench.sql).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { transit } from "@/lib/orders/transit";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { benchPool, withFreshDatabase } from "./lib/db";
import { insertCreatedOrders, type BulkOrders } from "./lib/orders";
import { runPgbench } from "./lib/pgbench";
import { BENCH_DIR, isMain, OUT_DIR, runAlone, type Bench } from "./lib/runner";
import { payVariables } from "./lib/transit-script";
import { count, ms, perSecond, summarize, totalRate, type Round as StatsRound } from "./lib/stats";

const CLIENTS = 16;
const TENANT = "bench";
const AMOUNT = 6_00;
const REASON = "bench";
const ACTOR = "channel:alipay";
/** Orders set aside per client per round: far more than one client can pay in a round. */
const STRIDE = 2_500;

type Side = "transit" | "prepared" | "unnamed" | "no-chain" | "minimal";
type Round = StatsRound<Side>;

const CONTEXT: readonly Exclude<Side, "transit">[] = ["prepared", "unnamed", "no-chain", "minimal"];

/** Bare tables for the minimal pay: keys only, no triggers, no secondary indexes, no JSON. */
async function createBareTables(pool: pg.Pool, orders: number): Promise<void> {
  await pool.query(`
    CREATE TABLE bare_orders (id bigint PRIMARY KEY, state text NOT NULL, version int NOT NULL);
    CREATE TABLE bare_transitions (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id bigint NOT NULL, event text NOT NULL,
      from_state text NOT NULL, to_state text NOT NULL, biz_key text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (order_id, event, biz_key));
    CREATE TABLE bare_outbox (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id bigint NOT NULL, topic text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
  await pool.query(`INSERT INTO bare_orders SELECT g, 'created', 0 FROM generate_series(1, $1::int) g`, [orders]);
  await pool.query(`VACUUM ANALYZE bare_orders`);
}

/**
 * bench/transit.pgbench.sql without the audit chain: the write's link (the order's head read, the
 * hash) and the head's move cut out, written to bench/out/. Each cut must match exactly once, so a
 * script that changed shape fails here rather than measuring something else.
 */
function scriptWithoutChain(): string {
  const cuts: [string | RegExp, string][] = [
    [/CASE WHEN extract\(timezone FROM at\) = 0 THEN audit_fact_hash\(prev_hash, jsonb_build_object\([^]*?\)\) END/, "NULL::bytea"],
    ["orders.chain_seq + 1 AS chain_seq, orders.chain_hash AS prev_hash", "NULL::bigint AS chain_seq, NULL::bytea AS prev_hash"],
    ["FROM x JOIN orders ON orders.id = x.order_id", "FROM x"],
    [/,\s*chain_seq = w\.chain_seq, chain_hash = w\.chain_hash/, ""],
  ];
  let script = readFileSync(path.join(BENCH_DIR, "transit.pgbench.sql"), "utf8");
  for (const [cut, replacement] of cuts) {
    const found = typeof cut === "string" ? script.split(cut).length - 1 : (script.match(new RegExp(cut, "g")) ?? []).length;
    if (found !== 1) throw new Error(`bench/transit.pgbench.sql: expected one ${String(cut)}, found ${found}`);
    script = script.replace(cut, replacement);
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, "transit-without-chain.pgbench.sql");
  writeFileSync(file, script);
  return file;
}

export const transitBench: Bench = {
  name: "transit",
  title: "1. transit() vs pgbench (same SQL, 16 clients, distinct orders)",
  async run({ args, log }) {
    const seconds = args.quick ? 4 : 6;
    const contextSeconds = 4;
    const ratioPlan: Side[] = ["transit", "prepared", "prepared", "transit", "transit", "prepared", "prepared", "transit"];
    const cycles = 3;
    const contextPlan: Side[] = Array.from({ length: cycles }, (_, c) => [...CONTEXT.slice(c), ...CONTEXT.slice(0, c)]).flat();
    const plan = [...ratioPlan, ...contextPlan];
    return withFreshDatabase("transit", async (db) => {
      const pool = benchPool(db.url, CLIENTS, "bench-transit");
      try {
        await ensureTenant(pool, tenantSpec(TENANT));
        // One block of orders per round (plus a warm-up block), each split into per-client strides.
        const blocks: BulkOrders[] = [];
        // Blocks: one paid first (history, as a live database has), one for the warm-up, one per round.
        for (let r = 0; r <= plan.length + 1; r++) {
          blocks.push(
            await insertCreatedOrders(pool, { tenantId: TENANT, count: CLIENTS * STRIDE, orderNoPrefix: `R${r}-`, createdAt: new Date(), amount: AMOUNT }),
          );
        }
        const withoutChain = scriptWithoutChain();
        // The bare orders share the real ones' ids, so a minimal round pays the ids of its own block.
        await createBareTables(pool, blocks.at(-1)!.lastId);
        // transit's prepared statements keep the generic plan of their sixth run: made on a
        // never-analysed, empty order_transitions, the facts statement's read the order's
        // transitions through a tenant-wide index (bench/ANALYSIS.md, issue 28).
        const history = blocks[0]!;
        await runPgbench({
          mode: "prepared",
          databaseUrl: db.url,
          script: path.join(BENCH_DIR, "transit.pgbench.sql"),
          clients: CLIENTS,
          threads: 2,
          seconds: 2,
          variables: payVariables(history, STRIDE, ACTOR),
        });
        await pool.query(`VACUUM ANALYZE`);
        // The setup's writes are flushed now, not by a checkpoint in the middle of the measurement.
        await pool.query(`CHECKPOINT`);
        log(`${count(blocks.length * CLIENTS * STRIDE)} orders ready`);

        const runTransit = async (block: BulkOrders, secs: number): Promise<Round> => {
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

        const runBench = async (block: BulkOrders, secs: number, side: Exclude<Side, "transit">): Promise<Round> => {
          const minimal = side === "minimal";
          const script = minimal ? path.join(BENCH_DIR, "minimal-pay.pgbench.sql") : side === "no-chain" ? withoutChain : path.join(BENCH_DIR, "transit.pgbench.sql");
          if (side === "no-chain") await pool.query(`ALTER TABLE order_transitions DISABLE TRIGGER order_transitions_chain`);
          const result = await runPgbench({
            mode: side === "unnamed" ? "extended" : "prepared",
            databaseUrl: db.url,
            script,
            clients: CLIENTS,
            threads: 2,
            seconds: secs,
            variables: payVariables(block, STRIDE, ACTOR),
          }).finally(async () => {
            if (side === "no-chain") await pool.query(`ALTER TABLE order_transitions ENABLE TRIGGER order_transitions_chain`);
          });
          if (result.failed > 0) throw new Error(`pgbench ${side}: ${result.failed} failed transactions`);
          // Every transaction must have done what transit does: one transition, the order paid, one message.
          const [transitions, orders, outbox] = minimal ? ["bare_transitions", "bare_orders", "bare_outbox"] : ["order_transitions", "orders", "outbox_messages"];
          const { rows } = await pool.query<{ transitions: number; paid: number; messages: number }>(
            `SELECT (SELECT count(*) FROM ${transitions} WHERE order_id BETWEEN $1 AND $2)::int AS transitions,
                    (SELECT count(*) FROM ${orders} WHERE id BETWEEN $1 AND $2 AND state = 'paid' AND version = 1)::int AS paid,
                    (SELECT count(*) FROM ${outbox} WHERE order_id BETWEEN $1 AND $2)::int AS messages`,
            [block.firstId, block.lastId],
          );
          const check = rows[0]!;
          if (check.transitions !== result.transactions || check.paid !== result.transactions || check.messages !== result.transactions) {
            throw new Error(`pgbench ${side} did not do what transit does: ${result.transactions} transactions, ${JSON.stringify(check)}`);
          }
          return { side, transactions: result.transactions, seconds: result.transactions / result.tps, tps: result.tps, detail: `latency average ${ms(result.latencyMs)}` };
        };

        // Warm-up (JIT, caches, connections), not counted.
        log("warm-up");
        await runTransit(blocks[1]!, 2);
        const rounds: Round[] = [];
        for (const [i, side] of plan.entries()) {
          const block = blocks[i + 2]!;
          const secs = i < ratioPlan.length ? seconds : contextSeconds;
          const round = side === "transit" ? await runTransit(block, secs) : await runBench(block, secs, side);
          log(`${side}: ${perSecond(round.tps)} (${round.detail})`);
          rounds.push(round);
        }

        const ratioRounds = rounds.slice(0, ratioPlan.length);
        const contextRounds = rounds.slice(ratioPlan.length);
        const transitTps = totalRate(ratioRounds, "transit");
        const preparedTps = totalRate(ratioRounds, "prepared");
        const ratio = transitTps / preparedTps;
        const context = (side: Side) => totalRate(contextRounds, side);
        const unnamed = context("unnamed") / context("prepared");
        const chainShare = 1 - context("prepared") / context("no-chain");
        const ofMinimal = context("prepared") / context("minimal");
        const describe = (list: readonly Round[]) => list.map((r) => `${r.side} ${perSecond(r.tps)} (${r.detail})`).join("; ");
        return {
          metrics: [
            { name: "transit() throughput", value: perSecond(transitTps) },
            { name: "pgbench throughput (same SQL, prepared)", value: perSecond(preparedTps) },
            { name: "ratio transit / prepared pgbench", value: ratio.toFixed(2), target: "≥ 0.8", met: ratio >= 0.8 },
            { name: "same SQL prepared / minimal pay on bare tables", value: ofMinimal.toFixed(2), target: "≥ 0.7", met: ofMinimal >= 0.7 },
            { name: "audit chain's share of a prepared pay (1 − with / without it)", value: `${(chainShare * 100).toFixed(1)} %`, target: "< 10 %", met: chainShare < 0.1 },
            { name: "context: same SQL unnamed / prepared", value: unnamed.toFixed(2) },
          ],
          notes: [
            `${CLIENTS} clients each paying its own \`created\` orders (\`pay\` with a matching amount: lock, facts, guard, transition + compare-and-set + outbox, commit); transit() through a pg pool of ${CLIENTS}, pgbench \`-M prepared -c ${CLIENTS} -j 2\` with bench/transit.pgbench.sql.`,
            `Ratio: rounds of ${seconds} s in the order transit, pgbench, pgbench, transit, transit, pgbench, pgbench, transit after a 2 s transit warm-up, total over total: ${describe(ratioRounds)}.`,
            `Context: ${cycles} cycles of ${contextSeconds} s pgbench rounds, the order turning each cycle, total over total per kind: the same SQL prepared; unnamed (\`-M extended\`); prepared without the audit chain (bench/out/transit-without-chain.pgbench.sql: the write's link, hash and head move cut out; the chain trigger disabled on this database); bench/minimal-pay.pgbench.sql on bare tables (\`-M prepared\`): ${describe(contextRounds)}.`,
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
