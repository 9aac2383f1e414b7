// 7. Payment callbacks through the HTTP API against pgbench running the same transaction.
//
// The production server (`npm start`: its web processes and the worker) on a fresh database; 16
// clients each POST `pay` to `/api/v1/orders/{no}/events` for its own `created` orders (distinct
// orders, one request in flight per client, keep-alive), with a tenant API key. Then pgbench with 16
// clients running bench/transit.pgbench.sql with the statements the API's transit() sends (it also
// reads the order's lines and history for the answer) on other orders of the same table, prepared
// (the ceiling) and unnamed. Rounds are balanced so drift weighs on every side alike; total over
// total. Every answer must be 200 `applied`, and the database must hold exactly one pay per call.
// The web processes' resident memory under this load is sampled too.
import { createApiKey } from "@/lib/api/keys";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { benchPool, withFreshDatabase } from "./lib/db";
import { agent, request } from "./lib/http";
import { insertCreatedOrders, type BulkOrders } from "./lib/orders";
import { runPgbench } from "./lib/pgbench";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { payVariables, writeTransitScript } from "./lib/transit-script";
import { startConsole } from "./lib/server";
import { count, ms, perSecond, summarize, totalRate, type Round as StatsRound } from "./lib/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3710);
const CLIENTS = 16;
const TENANT = "bench";
const AMOUNT = 6_00;
const ACTOR_KEY = "bench-channel";
const TARGET = 0.5;
/** Orders set aside per client per round: more than one client pays in a round. */
const STRIDE = 3_000;

type Round = StatsRound<"api" | "pgbench" | "unnamed">;

export const httpPayBench: Bench = {
  name: "http-pay",
  title: "7. Payment callbacks through the HTTP API vs pgbench (16 clients, distinct orders)",
  async run({ args, log }) {
    const seconds = args.quick ? 4 : 8;
    // Alternated, so that drift (a table that grows, a neighbour's load) weighs on every side alike.
    const plan: Round["side"][] = ["api", "pgbench", "api", "unnamed", "api", "pgbench", "api", "unnamed"];
    return withFreshDatabase("http_pay", async (db) => {
      const pool = benchPool(db.url, 4, "bench-http-pay");
      try {
        await ensureTenant(pool, tenantSpec(TENANT));
        // External delivery: the worker has no grant endpoint to call for the paid orders.
        await pool.query(`UPDATE tenant_settings SET delivery_mode = 'external', grant_endpoint_url = NULL`);
        const { key } = await createApiKey({ tenantId: TENANT, name: ACTOR_KEY, actor: "bench" });
        const blocks: BulkOrders[] = [];
        // Blocks: one paid before the server starts (history), one for the warm-up, one per round.
        for (let r = 0; r < plan.length + 2; r++) {
          blocks.push(await insertCreatedOrders(pool, { tenantId: TENANT, count: CLIENTS * STRIDE, orderNoPrefix: `H${r}-`, createdAt: new Date(), amount: AMOUNT }));
        }
        // The server meets a database with history and statistics, as in production: a prepared
        // statement keeps the generic plan it makes on its sixth run, and on a never-analysed,
        // empty order_transitions that plan read the order's transitions through a tenant-wide index
        // until autovacuum analysed the table (bench/ANALYSIS.md, issue 28).
        const script = writeTransitScript({ history: true });
        const history = blocks[0]!;
        await runPgbench({
          mode: "prepared",
          databaseUrl: db.url,
          script,
          clients: CLIENTS,
          threads: 2,
          seconds: 3,
          variables: payVariables(history, STRIDE, "channel:history"),
        });
        await pool.query(`VACUUM ANALYZE`);
        await pool.query(`CHECKPOINT`);
        log(`${count(blocks.length * CLIENTS * STRIDE)} orders ready, some with history`);

        const server = await startConsole({ databaseUrl: db.url, port: PORT, label: "http-pay", log });
        const keepAlive = agent(CLIENTS);
        /** Peak RSS of each side's web processes while its rounds ran. */
        let rss: number[] = [];
        try {
          const runApi = async (block: BulkOrders, secs: number, prefix: string): Promise<Round> => {
            const sampler = setInterval(() => {
              const sizes = server.webProcessRss();
              rss = sizes.map((size, i) => Math.max(size, rss[i] ?? 0));
            }, 500);
            const latencies: number[] = [];
            const unexpected: string[] = [];
            const deadline = performance.now() + secs * 1000;
            const t0 = performance.now();
            await Promise.all(
              Array.from({ length: CLIENTS }, async (_, client) => {
                for (let n = 1; n <= STRIDE && performance.now() < deadline; n++) {
                  const orderNo = `${prefix}${String(client * STRIDE + n).padStart(8, "0")}`;
                  const answer = await request(`${server.url}/api/v1/orders/${orderNo}/events`, {
                    method: "POST",
                    agent: keepAlive,
                    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                    body: JSON.stringify({ event: "pay", bizKey: `txn-${orderNo}`, amount: AMOUNT }),
                  });
                  latencies.push(answer.ms);
                  if (answer.status !== 200 || !answer.body.startsWith(`{"result":"applied"`)) unexpected.push(`${answer.status} ${answer.body.slice(0, 200)}`);
                }
              }),
            );
            const elapsed = (performance.now() - t0) / 1000;
            clearInterval(sampler);
            if (unexpected.length > 0) throw new Error(`api: ${unexpected.length} answers were not 200 applied, e.g. ${unexpected[0]}`);
            // Exactly one applied pay per call: the orders paid, their transitions, their messages.
            const { rows } = await pool.query<{ paid: number; transitions: number; messages: number }>(
              `SELECT (SELECT count(*) FROM orders WHERE id BETWEEN $1 AND $2 AND state = 'paid' AND version = 1)::int AS paid,
                      (SELECT count(*) FROM order_transitions WHERE order_id BETWEEN $1 AND $2 AND event = 'pay')::int AS transitions,
                      (SELECT count(*) FROM outbox_messages WHERE order_id BETWEEN $1 AND $2)::int AS messages`,
              [block.firstId, block.lastId],
            );
            const check = rows[0]!;
            const calls = latencies.length;
            if (check.paid !== calls || check.transitions !== calls || check.messages !== calls) {
              throw new Error(`api: ${calls} calls answered applied, but the database holds ${JSON.stringify(check)}`);
            }
            const s = summarize(latencies);
            return { side: "api", transactions: calls, seconds: elapsed, tps: calls / elapsed, detail: `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}` };
          };

          const runBench = async (block: BulkOrders, secs: number, side: "pgbench" | "unnamed"): Promise<Round> => {
            const result = await runPgbench({
              mode: side === "pgbench" ? "prepared" : "extended",
              databaseUrl: db.url,
              script,
              clients: CLIENTS,
              threads: 2,
              seconds: secs,
              variables: payVariables(block, STRIDE, `apikey:${TENANT}/${ACTOR_KEY}`),
            });
            if (result.failed > 0) throw new Error(`pgbench: ${result.failed} failed transactions`);
            const { rows } = await pool.query<{ paid: number }>(
              `SELECT count(*)::int AS paid FROM orders WHERE id BETWEEN $1 AND $2 AND state = 'paid' AND version = 1`,
              [block.firstId, block.lastId],
            );
            if (rows[0]!.paid !== result.transactions) throw new Error(`pgbench: ${result.transactions} transactions paid ${rows[0]!.paid} orders`);
            return { side, transactions: result.transactions, seconds: result.transactions / result.tps, tps: result.tps, detail: `latency average ${ms(result.latencyMs)}` };
          };

          log("warm-up");
          await runApi(blocks[1]!, 3, "H1-");
          const rounds: Round[] = [];
          for (const [i, side] of plan.entries()) {
            const block = blocks[i + 2]!;
            const round = side === "pgbench" || side === "unnamed" ? await runBench(block, seconds, side) : await runApi(block, seconds, `H${i + 2}-`);
            log(`${side}: ${perSecond(round.tps)} (${round.detail})`);
            rounds.push(round);
          }
          const total = (side: Round["side"]) => totalRate(rounds, side);
          const api = total("api");
          const pgbench = total("pgbench");
          const ratio = api / pgbench;
          const mib = (sizes: number[]) => sizes.map((size) => `${Math.round(size)} MiB`).join(", ") || "none found";
          return {
            metrics: [
              { name: "pay through the HTTP API", value: perSecond(api) },
              { name: "pgbench (the same transaction, prepared)", value: perSecond(pgbench) },
              { name: "ratio API / prepared pgbench", value: ratio.toFixed(2), target: `≥ ${TARGET}`, met: ratio >= TARGET },
              { name: "context: ratio API / unnamed pgbench (what this benchmark compared with before issue 28)", value: (api / total("unnamed")).toFixed(2) },
              { name: "RSS per web process under this load (peak)", value: mib(rss) },
            ],
            notes: [
              `${CLIENTS} clients, each with one request in flight on a keep-alive connection, paying its own \`created\` orders: \`POST /api/v1/orders/{no}/events\` \`{"event":"pay"}\` with a tenant API key, against \`npm start\` (its web processes, the worker) on a fresh database; pgbench \`-M prepared\` (and, for context, \`-M extended\`) \`-c ${CLIENTS} -j 2\` with bench/transit.pgbench.sql in the API's variant (bench/lib/transit-script.ts: its facts statement also reads the lines and history for the answer), BEGIN, lock, facts, write, COMMIT; the API's call is the same five round trips, its lock statement also checking the key.`,
              "RSS of the web processes sampled every 0.5 s during the API's rounds.",
              `Rounds of ${seconds} s after a 3 s warm-up of each server ("pgbench" prepared, "unnamed" extended), total over total: ${rounds.map((r) => `${r.side} ${perSecond(r.tps)} (${r.detail})`).join("; ")}.`,
              "Every answer was 200 `applied`; after each API round the database held exactly one paid order, one pay transition and one outbox message per call; every pgbench transaction paid its order.",
              "The clients, the server and PostgreSQL share this machine's cores: the API's rate is what they leave each other.",
            ],
          };
        } finally {
          keepAlive.destroy();
          await server.stop();
        }
      } finally {
        await pool.end();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(httpPayBench);
