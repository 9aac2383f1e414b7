// 2. Hot order: 200 identical `pay` callbacks for one order at once, through the HTTP API of the
// production server (`npm start` → next start). Every call must be answered, exactly one applied
// (the rest `duplicate`), and the database must show one transition, one outbox message.
import { createApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import type { OrderSnapshot } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";
import { DEMO_TENANTS, ensureTenant } from "@/lib/seed/tenants";
import { withFreshDatabase } from "./lib/db";
import { agent, request, type Response } from "./lib/http";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { startConsole } from "./lib/server";
import { ms, summarize } from "./lib/stats";

const CALLS = 200;
const BURSTS = 3;
const PORT = Number(process.env.BENCH_PORT ?? 3700);
const AMOUNT = 6_00;

export const hotOrderBench: Bench = {
  name: "hot-order",
  title: "2. Hot order: 200 concurrent identical pay calls through the HTTP API",
  async run({ log }) {
    return withFreshDatabase("hot_order", async (db) => {
      const tenant = DEMO_TENANTS[0]!;
      await ensureTenant(getPool(), tenant);
      const { key } = await createApiKey({ tenantId: tenant.id, name: "bench", actor: "system:bench" });
      const orders: OrderSnapshot[] = [];
      for (let i = 0; i <= BURSTS; i++) {
        orders.push(await createOrder(getPool(), { tenantId: tenant.id, orderNo: `HOT-${i}`, amount: AMOUNT }));
      }

      const server = await startConsole({ databaseUrl: db.url, port: PORT, label: "hot-order", log });
      try {
        // A fresh agent per burst: a kept-alive socket the server closed while idle between bursts
        // would fail the next request on it (ECONNRESET) for reasons that are not the server's.
        let http = agent(CALLS);
        const pay = (orderNo: string, bizKey: string): Promise<Response> =>
          request(`${server.url}/api/v1/orders/${orderNo}/events`, {
            method: "POST",
            agent: http,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ event: "pay", bizKey, amount: AMOUNT, reason: "channel callback" }),
          });

        // Warm-up on its own order: loads the route, opens sockets and pool connections.
        log("warm-up");
        await Promise.all(Array.from({ length: 50 }, () => pay(orders[0]!.orderNo, "txn-warm")));

        const latencies: number[] = [];
        const bursts: string[] = [];
        for (const order of orders.slice(1)) {
          http.destroy();
          http = agent(CALLS);
          const bizKey = `alipay-${order.orderNo}`;
          const answers = await Promise.all(Array.from({ length: CALLS }, () => pay(order.orderNo, bizKey).catch((error: Error) => error)));
          const failed = answers.filter((a): a is Error => a instanceof Error);
          if (failed.length > 0) throw new Error(`${failed.length} of ${CALLS} calls got no answer: ${failed[0]!.message}`);
          const ok = answers as Response[];
          const statuses = new Map<number, number>();
          const results = new Map<string, number>();
          for (const a of ok) {
            statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
            const result = a.status === 200 ? (JSON.parse(a.body) as { result: string }).result : `HTTP ${a.status}`;
            results.set(result, (results.get(result) ?? 0) + 1);
            latencies.push(a.ms);
          }
          if ((statuses.get(200) ?? 0) !== CALLS) throw new Error(`not every call answered 200: ${JSON.stringify([...statuses])}, e.g. ${ok.find((a) => a.status !== 200)?.body.slice(0, 300)}`);
          if (results.get("applied") !== 1 || results.get("duplicate") !== CALLS - 1) {
            throw new Error(`expected 1 applied and ${CALLS - 1} duplicate, got ${JSON.stringify([...results])}`);
          }
          const { rows } = await getPool().query<{ transitions: number; state: string; version: number; messages: number; exceptions: number }>(
            `SELECT (SELECT count(*) FROM order_transitions WHERE order_id = o.id)::int AS transitions, o.state, o.version,
                    (SELECT count(*) FROM outbox_messages WHERE order_id = o.id)::int AS messages,
                    (SELECT count(*) FROM order_exceptions WHERE order_id = o.id)::int AS exceptions
             FROM orders o WHERE o.id = $1`,
            [order.id],
          );
          const check = rows[0]!;
          if (check.transitions !== 1 || check.state !== "paid" || check.version !== 1 || check.messages !== 1 || check.exceptions !== 0) {
            throw new Error(`database after the burst on ${order.orderNo}: ${JSON.stringify(check)}`);
          }
          const s = summarize(ok.map((a) => a.ms));
          bursts.push(`${order.orderNo}: p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`);
          log(bursts.at(-1)!);
        }
        // Context: the same burst of reads (no lock, no write) shows what the server alone costs.
        http.destroy();
        http = agent(CALLS);
        const reads = await Promise.all(
          Array.from({ length: CALLS }, () =>
            request(`${server.url}/api/v1/orders/${orders[1]!.orderNo}`, { agent: http, headers: { authorization: `Bearer ${key}` } }),
          ),
        );
        if (reads.some((r) => r.status !== 200)) throw new Error(`a GET of the order answered ${reads.find((r) => r.status !== 200)!.status}`);
        const g = summarize(reads.map((r) => r.ms));
        http.destroy();

        const s = summarize(latencies);
        return {
          metrics: [
            { name: "calls answered (200)", value: `${BURSTS * CALLS} of ${BURSTS * CALLS}`, target: "all", met: true },
            { name: "applied per order (API answers and database)", value: "exactly 1", target: "exactly 1", met: true },
            { name: "latency p50", value: ms(s.p50) },
            { name: "latency p99", value: ms(s.p99) },
            { name: "context: 200 concurrent GETs of the order, p50 / p99", value: `${ms(g.p50)} / ${ms(g.p99)}` },
          ],
          notes: [
            `${BURSTS} bursts of ${CALLS} identical \`POST /api/v1/orders/{orderNo}/events\` (\`pay\`, same bizKey) fired at once on a fresh order each, against \`npm start\` (next start in each web process, and the worker) on a fresh database, after a 50-call warm-up on another order. Latency is per call, client side, over all ${BURSTS * CALLS} calls.`,
            `Per burst: ${bursts.join("; ")}.`,
            "Checked after each burst: every call answered 200, one `applied` and 199 `duplicate`; in the database one pay transition, the order `paid` at version 1, one outbox message, no exception filed.",
            "The GET burst (same server, same order, read only) is the part of the latency that is the server's own queue rather than the row lock. Each web process's pool has 10 connections (DATABASE_POOL_SIZE default; `npm start` runs WEB_CONCURRENCY web processes, one per core by default): the 200 calls queue for them, and the duplicates then wait on the order's row lock one after another, so the tail is the queue, not a slow statement.",
          ],
        };
      } finally {
        await server.stop();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(hotOrderBench);
