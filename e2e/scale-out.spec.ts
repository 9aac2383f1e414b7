// Scale-out stays exact: the production server as `npm start` runs it here — two web processes
// behind one port (WEB_CONCURRENCY=2 in playwright.config.ts, Node's cluster module) and its worker —
// plus a second worker started by this spec, all on the e2e run's fresh PostgreSQL database.
//
// This lives with the browser tests rather than in vitest because it needs the built console: the
// e2e run builds it once for every spec (vitest runs first, on a clean clone there is no build yet,
// and building there would cost more than this whole spec).
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import pg from "pg";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { channelKey } from "./channel";
import { E2E_DATABASE_URL, E2E_PORT } from "./env";
import { expect, test } from "./fixtures";

const TENANT = "scaleout";
const TIMEOUT_SECONDS = 60;
const AMOUNT = 6_00;

// int8 (ids, amounts) as numbers, as the app's own pool reads them (lib/db/pool.ts).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

let pool: pg.Pool;
let key: string;
let worker: ChildProcess;

test.beforeAll(async () => {
  pool = new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 10 });
  await ensureTenant(pool, tenantSpec(TENANT, { unpaidTimeoutSeconds: TIMEOUT_SECONDS }));
  key = await channelKey(pool, TENANT, "alipay");
  // The second worker (`npm start` runs the first), ticking fast so the timeout race is tight.
  worker = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/jobs/worker-main.ts"], {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, WORKER_INTERVAL_MS: "50", LOG_LEVEL: "error", NODE_ENV: "production", ORDEROPS_SERVICE: "orderops-worker-2" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await expect
    .poll(async () => (await pool.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'orderops-worker-2'`)).rowCount, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
});

test.afterAll(async () => {
  if (worker.exitCode === null && worker.signalCode === null) {
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    worker.kill("SIGTERM");
    await exited;
  }
  await pool.end();
});

interface Answer {
  readonly status: number;
  readonly result: string;
}

/** One pay callback on a connection of its own, so the cluster's round robin spreads the calls. */
function pay(orderNo: string, bizKey: string): Promise<Answer> {
  const body = JSON.stringify({ event: "pay", bizKey, amount: AMOUNT, reason: "channel callback" });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: E2E_PORT,
        path: `/api/v1/orders/${orderNo}/events`,
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        timeout: 60_000,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          let result = `HTTP ${response.statusCode}: ${text.slice(0, 200)}`;
          try {
            result = (JSON.parse(text) as { result?: string }).result ?? result;
          } catch {
            // not JSON: the status and body say what happened
          }
          resolve({ status: response.statusCode ?? 0, result });
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("pay timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.status} ${a.result}`] = (counts[`${a.status} ${a.result}`] ?? 0) + 1;
  return counts;
}

test("200 identical pay callbacks at one order, spread over both web processes: exactly one applied", async () => {
  const order = await createOrder(pool, { tenantId: TENANT, amount: AMOUNT });

  const answers = await Promise.all(Array.from({ length: 200 }, () => pay(order.orderNo, `alipay-${order.orderNo}`)));

  expect(tally(answers)).toEqual({ "200 applied": 1, "200 duplicate": 199 });
  const { rows } = await pool.query(
    `SELECT (SELECT count(*) FROM order_transitions WHERE order_id = o.id)::int AS transitions, o.state, o.version,
            (SELECT count(*) FROM outbox_messages WHERE order_id = o.id)::int AS messages,
            (SELECT count(*) FROM order_exceptions WHERE order_id = o.id)::int AS exceptions
     FROM orders o WHERE o.id = $1`,
    [order.id],
  );
  expect(rows[0]).toEqual({ transitions: 1, state: "paid", version: 1, messages: 1, exceptions: 0 });
  // Both web processes answered calls of this burst: each holds its own connections to the database
  // (application_name names the process; the pool keeps idle connections for 10 s).
  const web = await pool.query<{ name: string }>(
    `SELECT DISTINCT application_name AS name FROM pg_stat_activity
     WHERE datname = current_database() AND application_name LIKE 'orderops-web-%' ORDER BY 1`,
  );
  expect(web.rows.map((r) => r.name)).toEqual(["orderops-web-1", "orderops-web-2"]);
});

test("timeout close racing payments with two workers and two web processes: every order paid or closed, never both", async () => {
  const N = 100;
  const SPACING_MS = 30;
  // The orders expire 3 s from now; their payments arrive from 1.5 s before that to 1.5 s after,
  // one every 30 ms, while both workers close whatever has expired.
  const expiresAt = Date.now() + 3_000;
  const createdAt = new Date(expiresAt - TIMEOUT_SECONDS * 1000);
  const orders = await Promise.all(Array.from({ length: N }, () => createOrder(pool, { tenantId: TENANT, amount: AMOUNT, createdAt })));
  const ids = orders.map((o) => o.id);

  const answers = await Promise.all(
    orders.map(async (order, i) => {
      const at = expiresAt + (i - N / 2) * SPACING_MS;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      return { orderId: order.id, ...(await pay(order.orderNo, `alipay-${order.orderNo}`)) };
    }),
  );

  const applied = answers.filter((a) => a.status === 200 && a.result === "applied");
  const refused = answers.filter((a) => a.status === 409 && a.result === "illegal");
  // Every call got one of the two answers, and both happened: the race was real.
  expect(applied.length + refused.length, JSON.stringify(tally(answers))).toBe(N);
  test.info().annotations.push({ type: "outcome", description: `${applied.length} paid, ${refused.length} closed by the timeout` });
  expect(applied.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);

  const states = await pool.query<{ id: number; state: string }>(`SELECT id::int, state FROM orders WHERE id = ANY($1)`, [ids]);
  const stateOf = new Map(states.rows.map((r) => [r.id, r.state]));
  for (const a of applied) expect(stateOf.get(a.orderId)).toBe("paid");
  for (const a of refused) expect(stateOf.get(a.orderId)).toBe("closed");

  // One transition per order: the pay or the timeout's close, never both, never twice.
  const transitions = await pool.query<{ event: string; bizKey: string; actor: string; n: number; orders: number }>(
    `SELECT event, CASE WHEN event = 'pay' THEN 'txn' ELSE biz_key END AS "bizKey", actor, count(*)::int AS n, count(DISTINCT order_id)::int AS orders
     FROM order_transitions WHERE order_id = ANY($1) GROUP BY 1, 2, 3 ORDER BY 1`,
    [ids],
  );
  expect(transitions.rows).toEqual([
    { event: "close", bizKey: "timeout", actor: "system:timeout-close", n: refused.length, orders: refused.length },
    { event: "pay", bizKey: "txn", actor: expect.any(String), n: applied.length, orders: applied.length },
  ]);
  const doubled = await pool.query(`SELECT order_id FROM order_transitions WHERE order_id = ANY($1) GROUP BY order_id HAVING count(*) > 1`, [ids]);
  expect(doubled.rows).toEqual([]);
  // Each refused payment is filed as money on a closed order, once.
  const filed = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM order_exceptions WHERE order_id = ANY($1) AND kind = 'payment-after-close'`, [ids]);
  expect(filed.rows[0]!.n).toBe(refused.length);
});
