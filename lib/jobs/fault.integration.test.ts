import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { keepRunning, type Supervised } from "@/lib/process/supervise";
import { createOrder, type LineSpec } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { withAdmin } from "@/lib/test/server";
import type { GrantRequest } from "./delivery-coordinator";
import { MESSAGE_ID_HEADER } from "./signature";
import { startReceiver, type Receiver } from "./test-receiver";
import { JOB_NAMES, runWorker, type JobName } from "./worker";

// The fault issue 11 reproduced by hand, as a test: while payments, game-server grants, the
// delivery coordinator and the webhook relay all run, the server ends every connection to this
// test's database, again and again. The ledger must hold (no line over-granted, no grant id twice,
// the game server granted each line once), no outbox message may go missing, every order must
// finish once the load stops, and the workers must still be running — the one in this process
// (its loops did not die) and the one in a child process, as `npm start` runs it (never exited).

useFreshDatabase();

const MANAGED = 40;
const EXTERNAL = 30;
const KILL_ROUNDS = 5;
const LINES: readonly LineSpec[] = [
  { sku: "gems-60", kind: "currency", quantity: 60 },
  { sku: "skin-1", kind: "cosmetic", quantity: 1 },
];

let receiver: Receiver;
const grantedToPlayer = new Map<string, number>();
const seenGrantIds = new Set<string>();
let child: Supervised | undefined;
let childStderr = "";

beforeAll(async () => {
  // A game server that takes 5–20 ms a call and grants each grantId once (repeats answered 200, as
  // the contract asks), and a webhook receiver; both on one local server.
  receiver = await startReceiver(async (request) => {
    if (request.path !== "/grants") return 200;
    await sleep(5 + Math.random() * 15);
    const body = JSON.parse(request.body) as GrantRequest;
    if (!seenGrantIds.has(body.grantId)) {
      seenGrantIds.add(body.grantId);
      const line = `${body.orderNo}:${body.sku}`;
      grantedToPlayer.set(line, (grantedToPlayer.get(line) ?? 0) + body.quantity);
    }
    return 200;
  });
  const urls = { grantEndpointUrl: `${receiver.url}/grants`, webhookUrl: `${receiver.url}/hooks` };
  await ensureTenant(getPool(), tenantSpec("f-managed", { deliveryMode: "managed", ...urls }));
  await ensureTenant(getPool(), tenantSpec("f-external", { deliveryMode: "external", webhookUrl: urls.webhookUrl }));
});

afterAll(async () => {
  await child?.stop("SIGKILL");
  await receiver.close();
});

/** What a payment channel or a game server does with a call that failed because the database went away: call again. */
let retriedCalls = 0;
async function persist<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      retriedCalls++;
      await sleep(50);
    }
  }
}

const pay = (id: number, amount: number) =>
  persist(() => transit({ orderId: id, event: "pay", bizKey: `txn-${id}`, amount, actor: "channel", source: "callback" }));

/** xiaoxiao-style delivery: the game server begins, grants each line through grant(), confirms. */
async function deliverExternally(id: number, orderNo: string): Promise<void> {
  const step = (event: "begin-delivery" | "confirm-delivery") =>
    persist(() => transit({ orderId: id, event, bizKey: `ticket-${orderNo}`, actor: "game-server", source: "api" }));
  expect((await step("begin-delivery")).result).toMatch(/^(applied|duplicate)$/);
  for (const line of LINES) {
    const granted = await persist(() =>
      grant({ orderId: id, sku: line.sku, quantity: line.quantity, grantId: `srv:${orderNo}:${line.sku}`, actor: "game-server", source: "api" }),
    );
    expect(granted.result).toMatch(/^(applied|duplicate)$/);
  }
  expect((await step("confirm-delivery")).result).toMatch(/^(applied|duplicate)$/);
}

/** Ends every connection to this test's database — never the template's or another file's. */
async function terminateAll(): Promise<number> {
  const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
  return withAdmin(async (admin) => {
    const { rowCount } = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database]);
    return rowCount ?? 0;
  });
}

function startChildWorker(): Supervised {
  const supervised = keepRunning(
    {
      name: "worker",
      command: process.execPath,
      args: ["--conditions=react-server", "--import", "tsx", "lib/jobs/worker-main.ts"],
      options: { env: { ...process.env, LOG_LEVEL: "silent", WORKER_INTERVAL_MS: "50", NODE_ENV: "production" }, stdio: ["ignore", "ignore", "pipe"] },
    },
    { log: { info: () => undefined, warn: () => undefined } },
  );
  supervised.current()?.stderr?.on("data", (chunk: Buffer) => (childStderr += chunk.toString()));
  return supervised;
}

const count = z.object({ n: z.number() });

describe("terminating every backend of the database during a mixed load", () => {
  it("leaves the ledger and the outbox whole, finishes every order, and kills no worker", { timeout: 60_000 }, async () => {
    const managed = await Promise.all(Array.from({ length: MANAGED }, () => createOrder(getPool(), { tenantId: "f-managed", lines: LINES })));
    const external = await Promise.all(Array.from({ length: EXTERNAL }, () => createOrder(getPool(), { tenantId: "f-external", lines: LINES })));
    const ids = [...managed, ...external].map((o) => o.id);

    child = startChildWorker();
    const childPid = child.current()!.pid;
    const lastRun = new Map<JobName, number>();
    const workerErrors: unknown[] = [];
    const controller = new AbortController();
    let workerReturned = false;
    const worker = runWorker({
      signal: controller.signal,
      intervalMs: 50,
      checkpointIntervalMs: 50,
      voidedPollCheckMs: 50,
      rateWindowSweepMs: 50,
      presenceSweepMs: 50,
      onReport: (job) => lastRun.set(job, Date.now()),
      onError: (_job, error) => workerErrors.push(error),
    }).finally(() => (workerReturned = true));

    // The load: payments trickle in over ~6 s; each external order is then delivered by its game server.
    const load = Promise.all(
      [...managed, ...external].map(async (order, i) => {
        await sleep((i % 35) * 170);
        expect((await pay(order.id, order.amount)).result).toMatch(/^(applied|duplicate)$/);
        if (order.tenantId === "f-external") await deliverExternally(order.id, order.orderNo);
      }),
    );
    const terminated: number[] = [];
    for (let round = 0; round < KILL_ROUNDS; round++) {
      await sleep(1_200);
      terminated.push(await terminateAll());
    }
    await load;
    const lastKill = Date.now();

    const delivered = async () =>
      (await rows(getPool(), count, `SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND state = 'delivered'`, [ids]))[0]!.n;
    await expect.poll(delivered, { timeout: 30_000, interval: 100 }).toBe(ids.length);
    // Each job of this process's worker ran again after the last cut: its loops are alive.
    await expect.poll(() => JOB_NAMES.every((job) => (lastRun.get(job) ?? 0) > lastKill), { timeout: 10_000 }).toBe(true);
    expect(workerReturned).toBe(false);
    expect(child.restarts(), childStderr).toBe(0);
    expect(child.current()?.pid, childStderr).toBe(childPid);
    controller.abort();
    await worker;

    // The cuts landed: every round ended connections, and some of them under work in flight.
    expect(terminated.every((n) => n > 0), `terminated per round: ${terminated.join(", ")}`).toBe(true);
    expect(retriedCalls + workerErrors.length).toBeGreaterThan(0);
    for (const error of workerErrors) expect(isDatabaseUnavailable(error), String(error)).toBe(true);

    // The ledger: every line granted exactly its quantity, each grant id once; the game server
    // granted each managed line exactly once too.
    const lines = await rows(
      getPool(),
      z.object({ orderNo: z.string(), tenantId: z.string(), sku: z.string(), quantity: z.number(), granted: z.number(), grants: z.number(), grantIds: z.number() }),
      `SELECT o.order_no AS "orderNo", o.tenant_id AS "tenantId", l.sku, l.quantity,
              COALESCE(sum(g.quantity), 0)::int AS granted, count(g.id)::int AS grants, count(DISTINCT g.grant_id)::int AS "grantIds"
       FROM order_lines l JOIN orders o ON o.id = l.order_id
       LEFT JOIN grants g ON g.order_id = l.order_id AND g.sku = l.sku
       WHERE o.id = ANY($1) GROUP BY o.order_no, o.tenant_id, l.sku, l.quantity`,
      [ids],
    );
    expect(lines).toHaveLength(ids.length * LINES.length);
    expect(lines.filter((l) => l.granted !== l.quantity || l.grants !== 1 || l.grantIds !== 1)).toEqual([]);
    for (const line of lines.filter((l) => l.tenantId === "f-managed")) expect(grantedToPlayer.get(`${line.orderNo}:${line.sku}`)).toBe(line.quantity);

    // The outbox: one message per transition and per grant, each delivered or still pending
    // (a relay cut between its POST and recording it sends again after its lease), and every one
    // marked delivered reached the receiver.
    const perOrder = await rows(
      getPool(),
      z.object({ id: z.number(), transitions: z.number(), grants: z.number(), messages: z.number(), lost: z.number() }),
      `SELECT o.id,
              (SELECT count(*) FROM order_transitions t WHERE t.order_id = o.id)::int AS transitions,
              (SELECT count(*) FROM grants g WHERE g.order_id = o.id)::int AS grants,
              (SELECT count(*) FROM outbox_messages m WHERE m.order_id = o.id)::int AS messages,
              (SELECT count(*) FROM outbox_messages m WHERE m.order_id = o.id AND m.status NOT IN ('delivered', 'pending'))::int AS lost
       FROM orders o WHERE o.id = ANY($1)`,
      [ids],
    );
    expect(perOrder.filter((o) => o.messages !== o.transitions + o.grants || o.lost > 0)).toEqual([]);
    const deliveredIds = await rows(getPool(), z.object({ id: z.number() }), `SELECT id FROM outbox_messages WHERE order_id = ANY($1) AND status = 'delivered'`, [ids]);
    const received = new Set(receiver.requests.filter((r) => r.path === "/hooks").map((r) => Number(r.headers[MESSAGE_ID_HEADER])));
    expect(deliveredIds.filter(({ id }) => !received.has(id))).toEqual([]);
    expect(deliveredIds.length).toBeGreaterThan(0);

    const stopping = child.current()!;
    await child.stop("SIGTERM");
    expect(stopping.exitCode, childStderr).toBe(0);
  });
});
