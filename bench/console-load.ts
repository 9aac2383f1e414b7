// 4. Console under load: the order page and the orders list, signed in, at 50 concurrent
// connections (autocannon) against the production server (`npm start` → next start + worker),
// on a fresh database seeded by the bulk seeder.
import autocannon from "autocannon";
import { getPool } from "@/lib/db/pool";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { seedDemoStaff } from "@/lib/seed/staff";
import { withFreshDatabase } from "./lib/db";
import { request, signIn } from "./lib/http";
import type { Metric } from "./lib/results";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { startConsole } from "./lib/server";
import { count, ms, perSecond, summarize } from "./lib/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3700);
const CONNECTIONS = 50;
const TARGET_P95_MS = 150;
const MAX_RSS_MB = 500;
/** Context for the target: 50 agents who each open a page every 5 s. */
const AGENT_PAUSE_S = 5;
const EMAIL = "manager@example.com";
const PASSWORD = "orderops-demo";

interface LoadRun {
  readonly latencies: number[];
  readonly statuses: Map<number, number>;
  readonly errors: number;
  readonly timeouts: number;
  readonly seconds: number;
}

/**
 * autocannon with `connections` keeping one request each in flight; paths rotate over `paths`. With
 * `overallRate`, the connections together send that many requests a second (agents who read what
 * they opened) instead of one the moment the last was answered.
 */
async function load(
  baseUrl: string,
  cookie: string,
  paths: readonly string[],
  connections: number,
  seconds: number,
  overallRate?: number,
): Promise<LoadRun> {
  let next = 0;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const t0 = performance.now();
  const instance = autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    ...(overallRate ? { overallRate } : {}),
    timeout: 30,
    headers: { cookie, accept: "text/html" },
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }),
      },
    ],
  });
  // Every response's own time, for exact percentiles (autocannon's summary has no p95).
  (instance as unknown as { on(e: "response", l: (client: unknown, status: number, bytes: number, time: number) => void): void }).on(
    "response",
    (_client, status, _bytes, time) => {
      latencies.push(time);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    },
  );
  const result = await instance;
  return { latencies, statuses, errors: result.errors, timeouts: result.timeouts, seconds: (performance.now() - t0) / 1000 };
}

export const consoleLoadBench: Bench = {
  name: "console-load",
  title: "4. Console under load: order page and orders list at 50 connections",
  async run({ args, log }) {
    const orders = args.quick ? 20_000 : 100_000;
    const seconds = args.quick ? 10 : 20;
    return withFreshDatabase("console", async (db) => {
      const pool = getPool();
      log(`seeding ${count(orders)} orders`);
      const seeded = await seedDemo(pool, { orders, seed: 5, history: "dense" });
      await seedDemoStaff(pool);
      // fangzhou delivers through a grant endpoint (managed mode) that does not run here: the worker
      // would retry refused grant calls all through the measurement. As an external-mode product,
      // its orders are shown the same way and the worker has nothing to retry.
      await pool.query(`UPDATE tenant_settings SET delivery_mode = 'external', grant_endpoint_url = NULL`);
      await pool.query(`VACUUM ANALYZE orders, order_lines, order_transitions, grants, order_exceptions`);
      const { rows: sample } = await pool.query<{ path: string }>(
        `SELECT '/orders/' || tenant_id || '/' || order_no AS path FROM orders TABLESAMPLE BERNOULLI (1) REPEATABLE (7) LIMIT 500`,
      );
      const orderPages = sample.map((r) => r.path);

      const server = await startConsole({ databaseUrl: db.url, port: PORT, label: "console-load", log });
      try {
        const cookie = await signIn(server.url, EMAIL, PASSWORD);
        // The pages answer signed in (a redirect to /sign-in would be fast and meaningless).
        for (const path of [orderPages[0]!, "/orders"]) {
          const page = await request(`${server.url}${path}`, { headers: { cookie } });
          if (page.status !== 200) throw new Error(`GET ${path} signed in answered ${page.status}`);
        }
        const orderNo = orderPages[0]!.split("/").at(-1)!;
        const check = await request(`${server.url}${orderPages[0]}`, { headers: { cookie } });
        if (!check.body.includes(orderNo)) throw new Error(`the order page does not show ${orderNo}`);

        const targets = [
          { key: "order page", paths: orderPages, what: `\`/orders/{tenant}/{orderNo}\` rotating over ${orderPages.length} random orders` },
          { key: "orders list", paths: ["/orders"], what: "`/orders` (first page, no filter: newest first, with the total)" },
        ];
        const metrics: Metric[] = [];
        const notes: string[] = [];
        // Each web process's resident memory, sampled every second through the runs below.
        let peakRss = 0;
        let processes = 0;
        const sampler = setInterval(() => {
          const sizes = server.webProcessRss();
          processes = Math.max(processes, sizes.length);
          peakRss = Math.max(peakRss, ...sizes);
        }, 1000);
        for (const target of targets) {
          log(`${target.key}: warm-up`);
          await load(server.url, cookie, target.paths, 10, 5);
          // One connection: the page's own time, with no queue in front of it.
          const alone = await load(server.url, cookie, target.paths, 1, 5);
          const a = summarize(alone.latencies);
          const run = await load(server.url, cookie, target.paths, CONNECTIONS, seconds);
          const s = summarize(run.latencies);
          const ok = run.statuses.get(200) ?? 0;
          const bad = run.latencies.length - ok + run.errors + run.timeouts;
          log(`${target.key}: p95 ${ms(s.p95)} (${ok} × 200, ${bad} other)`);
          metrics.push({
            name: `${target.key}: latency p95`,
            value: `${ms(s.p95)} (p50 ${ms(s.p50)}, p99 ${ms(s.p99)}; ${perSecond(run.latencies.length / run.seconds)})`,
            target: `< ${TARGET_P95_MS} ms`,
            met: s.p95 < TARGET_P95_MS && bad === 0,
          });
          const rate = run.latencies.length / run.seconds;
          metrics.push({
            name: `${target.key}: one connection (no queue)`,
            value: `p50 ${ms(a.p50)}, p95 ${ms(a.p95)}; ${perSecond(alone.latencies.length / alone.seconds)}`,
          });
          const paced = summarize((await load(server.url, cookie, target.paths, CONNECTIONS, seconds, CONNECTIONS / AGENT_PAUSE_S)).latencies);
          metrics.push({
            name: `${target.key}: ${CONNECTIONS} agents opening a page every ${AGENT_PAUSE_S} s each (${perSecond(CONNECTIONS / AGENT_PAUSE_S)})`,
            value: `p95 ${ms(paced.p95)} (p50 ${ms(paced.p50)}, p99 ${ms(paced.p99)})`,
          });
          notes.push(
            `${target.key}: ${target.what}; ${count(run.latencies.length)} responses in ${seconds} s, ${count(ok)} with 200${bad > 0 ? `, **${count(bad)} not 200, errors or timeouts** (${JSON.stringify([...run.statuses])})` : ""}. ` +
              `Little's law: ${CONNECTIONS} connections each waiting for its answer at ${perSecond(rate)} make a mean latency of ${ms((CONNECTIONS / rate) * 1000)}; a p95 under ${TARGET_P95_MS} ms at ${CONNECTIONS} connections needs more than ${perSecond((CONNECTIONS / TARGET_P95_MS) * 1000)}.`,
          );
        }
        clearInterval(sampler);
        metrics.push({
          name: `memory per web process at ${CONNECTIONS} connections (peak RSS of ${processes})`,
          value: `${peakRss.toFixed(0)} MiB`,
          target: `< ${MAX_RSS_MB} MB`,
          met: processes > 0 && peakRss < MAX_RSS_MB,
        });
        return {
          metrics,
          notes: [
            `Fresh database with ${count(seeded.rows.orders)} orders and ${count(seeded.rows.order_transitions)} transitions (seedDemo, dense), the demo staff; signed in as ${EMAIL} (both products) through next-auth's credentials callback; ${CONNECTIONS} autocannon connections for ${seconds} s per page after a 5 s warm-up at 10; latency per response, client side.`,
            ...notes,
            "The load generator runs on the same 2 cores as the server and PostgreSQL: the rates are what this machine does, not a server's capacity.",
          ],
        };
      } finally {
        await server.stop();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(consoleLoadBench);
