// Scale-out stays exact: the production shape as the browser tests run it (e2e/server.ts) — two
// app nodes behind HAProxy, node A with two web processes (Node's cluster module) and node B with
// one, each node with its worker — plus a third worker started by this spec, all on the e2e run's
// fresh PostgreSQL database. The calls go through the balancer, so both nodes take them.
//
// This lives with the browser tests rather than in vitest because it needs the built console and its
// nodes: the e2e run builds and starts them once for every spec (vitest runs first, on a clean clone
// there is no build yet, and building there would cost more than this whole spec).
import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { channelKey } from "./channel";
import { E2E_DATABASE_URL, E2E_NODES, E2E_SECRET } from "./env";
import { countBy, pay as payThrough, tally, type Answer } from "./fresh-call";
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
  // The third worker (each node's `npm start` runs one): the compiled one of node A's build, as
  // `npm run worker` starts it, ticking fast so the timeout race is tight.
  worker = spawn(process.execPath, ["--conditions=react-server", "scripts/run.mjs", "worker"], {
    env: {
      ...process.env,
      DATABASE_URL: E2E_DATABASE_URL,
      ORDEROPS_SECRET: E2E_SECRET,
      NEXT_DIST_DIR: E2E_NODES[0]!.distDir,
      WORKER_INTERVAL_MS: "50",
      LOG_LEVEL: "error",
      NODE_ENV: "production",
      ORDEROPS_SERVICE: "orderops-worker-3",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await expect
    .poll(async () => (await pool.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'orderops-worker-3'`)).rowCount, {
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

/** One pay callback on a connection of its own, so the balancer's round robin spreads the calls. */
function pay(orderNo: string, bizKey: string): Promise<Answer> {
  return payThrough(key, orderNo, bizKey, AMOUNT);
}

test("scale-out: 200 identical pay callbacks at one order, spread over both nodes and their web processes: exactly one applied", async () => {
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
  // The burst was spread over both nodes (the balancer names the node that answered each call) …
  expect(Object.keys(countBy(answers, (a) => a.servedBy ?? "none")).sort()).toEqual(E2E_NODES.map((n) => n.name));
  // … and over every web process of each: each holds its own connections to the database
  // (application_name names the node and the process; the pool keeps idle connections for 10 s).
  const web = await pool.query<{ name: string }>(
    `SELECT DISTINCT application_name AS name FROM pg_stat_activity
     WHERE datname = current_database() AND application_name LIKE 'orderops-node-%-web-%' ORDER BY 1`,
  );
  expect(web.rows.map((r) => r.name)).toEqual(E2E_NODES.flatMap((n) => Array.from({ length: n.webProcesses }, (_, i) => `orderops-${n.name}-web-${i + 1}`)));
});

test("scale-out: timeout close racing payments with three workers and both nodes: every order paid or closed, never both", async () => {
  const N = 100;
  const SPACING_MS = 30;
  // The orders expire 3 s from now; their payments arrive from 1.5 s before that to 1.5 s after,
  // one every 30 ms, while the workers close whatever has expired.
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
