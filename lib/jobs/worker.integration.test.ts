import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { rows } from "@/lib/db/sql";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { MESSAGE_ID_HEADER } from "./signature";
import { startReceiver, type Receiver } from "./test-receiver";
import type { DeliveryReport } from "./delivery-coordinator";
import { verifyChains } from "@/lib/audit/chain";
import { sealCheckpoint } from "@/lib/audit/checkpoint";
import { JOB_NAMES, runWorker, type JobName, type RateWindowSweepCounts } from "./worker";

useFreshDatabase();

let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  await ensureTenant(
    getPool(),
    tenantSpec("loop", { deliveryMode: "managed", grantEndpointUrl: `${receiver.url}/grants`, webhookUrl: `${receiver.url}/hooks` }),
  );
});

afterAll(async () => {
  await receiver.close();
});

describe("runWorker", () => {
  it("runs every job until aborted: expired orders close, paid ones are delivered, every event is relayed", async () => {
    const expired = await Promise.all(
      Array.from({ length: 5 }, () => createOrder(getPool(), { tenantId: "loop", createdAt: new Date(Date.now() - 3600_000) })),
    );
    const paid = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const order = await createOrder(getPool(), { tenantId: "loop" });
        await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: order.amount, actor: "channel", source: "callback" });
        return order;
      }),
    );
    const ran = new Set<JobName>();
    const controller = new AbortController();

    const worker = runWorker({ signal: controller.signal, intervalMs: 20, checkpointIntervalMs: 20, onReport: (job) => ran.add(job) });

    const states = () =>
      rows(
        getPool(),
        z.object({ state: z.string(), n: z.number() }),
        `SELECT state, count(*)::int AS n FROM orders WHERE id = ANY($1) GROUP BY state ORDER BY state`,
        [[...expired, ...paid].map((o) => o.id)],
      );
    await expect.poll(states, { timeout: 20_000 }).toEqual([
      { state: "closed", n: 5 },
      { state: "delivered", n: 5 },
    ]);
    // pay, begin, one grant, confirm per paid order; one close per expired order.
    await expect
      .poll(() => rows(getPool(), z.object({ status: z.string(), n: z.number() }), `SELECT status, count(*)::int AS n FROM outbox_messages GROUP BY status`), {
        timeout: 20_000,
      })
      .toEqual([{ status: "delivered", n: 25 }]);

    controller.abort();
    await worker;
    expect([...ran].sort()).toEqual(["audit-checkpoint", "cases", "delivery", "outbox-relay", "presence", "rate-windows", "refund-reviews", "take-backs", "timeout-close", "voided-purchases"]);
    // The checkpoint sealed what the jobs wrote: nothing is left unverified.
    expect(await verifyChains()).toMatchObject({ ok: true });
    expect(await sealCheckpoint()).toMatchObject({ result: expect.stringMatching(/^(nothing-new|sealed)$/) });
    const hooks = receiver.requests.filter((r) => r.path === "/hooks");
    expect(new Set(hooks.map((r) => r.headers[MESSAGE_ID_HEADER])).size).toBe(25);
    expect(hooks).toHaveLength(25);
    expect(receiver.requests.filter((r) => r.path === "/grants")).toHaveLength(5);
  });

  it("gives a webhook message up after relayMaxAttempts (the demo's OUTBOX_MAX_ATTEMPTS), not the relay's default", async () => {
    const down = await startReceiver(() => 500);
    try {
      await ensureTenant(getPool(), tenantSpec("give-up", { deliveryMode: "external", webhookUrl: `${down.url}/hooks` }));
      const order = await createOrder(getPool(), { tenantId: "give-up" });
      await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: order.amount, actor: "channel", source: "callback" });
      const controller = new AbortController();
      const worker = runWorker({ signal: controller.signal, intervalMs: 20, relayMaxAttempts: 2 });
      const messages = () =>
        rows(getPool(), z.object({ status: z.string(), attempts: z.number() }), `SELECT status, attempts FROM outbox_messages WHERE order_id = $1`, [order.id]);
      await expect.poll(messages, { timeout: 20_000 }).toEqual([{ status: "dead", attempts: 2 }]);
      controller.abort();
      await worker;
      expect(down.requests).toHaveLength(2);
    } finally {
      await down.close();
    }
  });

  it("a job whose claiming connection the server ends throws into the loop, which runs it again on the next tick", async () => {
    await ensureTenant(getPool(), tenantSpec("lossy", { deliveryMode: "managed", grantEndpointUrl: `${receiver.url}/grants` }));
    const ids = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const order = await createOrder(getPool(), { tenantId: "lossy" });
        await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: order.amount, actor: "channel", source: "callback" });
        return order.id;
      }),
    );
    // The first grant call ends the session holding the delivery claims, as a server restart or a cut
    // network would, and waits until it is gone. Another job's advisory try-lock (timeout close, the
    // audit checkpoint) may be held at that instant too, on a busy machine: its session ends as well.
    let ended = false;
    let killing: Promise<unknown> | undefined;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      killing ??= rows(
        getPool(),
        z.object({ ended: z.boolean() }),
        `SELECT pg_terminate_backend(pid, 5000) AS ended FROM (
           SELECT DISTINCT pid FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) x`,
      ).then((r) => (ended = r.length > 0 && r.every((x) => x.ended)));
      await killing;
      return globalThis.fetch(input, init);
    };
    const afterKill: DeliveryReport[] = [];
    const delivery: DeliveryReport[] = [];
    const controller = new AbortController();

    const worker = runWorker({
      signal: controller.signal,
      intervalMs: 20,
      fetch,
      onReport: (job, report) => {
        if (job !== "delivery") return;
        delivery.push(report as DeliveryReport);
        if (ended) afterKill.push(report as DeliveryReport);
      },
    });

    const delivered = () =>
      rows(getPool(), z.object({ state: z.string() }), `SELECT state FROM orders WHERE id = ANY($1) AND state = 'delivered'`, [ids]);
    try {
      await expect.poll(async () => (await delivered()).length, { timeout: 20_000 }).toBe(3);
      await expect.poll(() => afterKill.length, { timeout: 20_000 }).toBeGreaterThan(0);
    } finally {
      controller.abort();
      await worker;
    }

    expect(ended).toBe(true);
    // The run that did the work lost its claim connection and threw (it never reported), and the
    // loop lived on to run the job again.
    expect(delivery.every((r) => r.begun === 0 && r.confirmed === 0)).toBe(true);
  });

  it("every job whose statement's connection the server ends logs it, runs again on the next tick and finishes its work", async () => {
    await ensureTenant(
      getPool(),
      tenantSpec("ended", { deliveryMode: "managed", grantEndpointUrl: `${receiver.url}/grants`, webhookUrl: `${receiver.url}/hooks` }),
    );
    const expired = await createOrder(getPool(), { tenantId: "ended", createdAt: new Date(Date.now() - 3600_000) });
    const paid = await createOrder(getPool(), { tenantId: "ended" });
    await transit({ orderId: paid.id, event: "pay", bizKey: `txn-${paid.id}`, amount: paid.amount, actor: "channel", source: "callback" });

    // Every job's first statement on its table waits behind this lock — timeout close's and the
    // coordinator's scans of orders, the relay's claim of outbox messages, the audit checkpoint's
    // read of the chain heads, the voided purchases poll's cursors, the refund reviews' deadline
    // scan, the rate window sweep, the presence sweep — until the server ends the waiting connections, as a restart or
    // pg_terminate_backend would.
    const locker = await getPool().connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE orders, outbox_messages, audit_chain_heads, store_poll_cursors, refund_reviews, rate_windows, order_presence IN ACCESS EXCLUSIVE MODE");
    const failures: { job: JobName; error: unknown }[] = [];
    const controller = new AbortController();
    const worker = runWorker({
      signal: controller.signal,
      intervalMs: 20,
      checkpointIntervalMs: 20,
      voidedPollCheckMs: 20,
      rateWindowSweepMs: 20,
      presenceSweepMs: 20,
      onError: (job, error) => failures.push({ job, error }),
    });
    try {
      const waiting = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      await expect.poll(async () => (await getPool().query(waiting)).rowCount, { timeout: 10_000 }).toBe(JOB_NAMES.length);
      await getPool().query(`SELECT pg_terminate_backend(pid, 5000) FROM (${waiting}) x`);
      await expect.poll(() => new Set(failures.map((f) => f.job)).size, { timeout: 10_000 }).toBe(JOB_NAMES.length);
    } finally {
      await locker.query("ROLLBACK");
      locker.release();
    }

    const states = () =>
      rows(getPool(), z.object({ id: z.number(), state: z.string() }), `SELECT id, state FROM orders WHERE id = ANY($1) ORDER BY id`, [[expired.id, paid.id]]);
    await expect.poll(states, { timeout: 20_000 }).toEqual([
      { id: expired.id, state: "closed" },
      { id: paid.id, state: "delivered" },
    ]);
    const pending = () =>
      rows(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM outbox_messages WHERE tenant_id = 'ended' AND status <> 'delivered'`);
    await expect.poll(pending, { timeout: 20_000 }).toEqual([{ n: 0 }]);
    controller.abort();
    await worker;

    // One failure per job, each the ended connection, and each job's loop lived on to do the work.
    expect(failures.map((f) => f.job).sort()).toEqual([...JOB_NAMES].sort());
    for (const { job, error } of failures) expect(isDatabaseUnavailable(error), `${job}: ${String(error)}`).toBe(true);
  });

  it("sweeps the rate windows that ended more than an hour ago, and only those", async () => {
    // An address spray's leftovers (more than one batch of them), a window that ended recently and one still running.
    await getPool().query(
      `INSERT INTO rate_windows (scope, key, count, ends_at)
       SELECT 'api-key-failures', '2001:db8::' || to_hex(n), 1, now() - interval '61 minutes' FROM generate_series(1, 10005) n
       UNION ALL SELECT 'api-key-failures', '198.51.100.1', 20, now() - interval '59 minutes'
       UNION ALL SELECT 'store-refusals', 'appstore:loop', 3, now() + interval '30 seconds'`,
    );
    const reports: RateWindowSweepCounts[] = [];
    const controller = new AbortController();
    const worker = runWorker({
      signal: controller.signal,
      intervalMs: 60_000,
      onReport: (job, report) => {
        if (job === "rate-windows") reports.push(report as RateWindowSweepCounts);
      },
    });
    const left = () => rows(getPool(), z.object({ key: z.string() }), `SELECT key FROM rate_windows ORDER BY key`);
    try {
      await expect.poll(left, { timeout: 10_000 }).toEqual([{ key: "198.51.100.1" }, { key: "appstore:loop" }]);
    } finally {
      controller.abort();
      await worker;
    }
    // A full batch went again at once, without waiting for the pause.
    expect(reports.slice(0, 2)).toEqual([{ deleted: 10_000 }, { deleted: 5 }]);
  });

  it("sweeps presence rows whose tab stopped polling, and leaves the live ones", async () => {
    // Tabs on an order nobody polls any more (their node died): expired; and one still open.
    await getPool().query(
      `INSERT INTO order_presence (tenant_id, order_id, staff_id, tab_id, expires_at)
       SELECT 'gone', 1, n, gen_random_uuid(), now() - interval '1 second' FROM generate_series(1, 3) n
       UNION ALL SELECT 'here', 2, 1, gen_random_uuid(), now() + interval '15 seconds'`,
    );
    const controller = new AbortController();
    const worker = runWorker({ signal: controller.signal, intervalMs: 60_000 });
    const left = () => rows(getPool(), z.object({ tenant_id: z.string() }), `SELECT tenant_id FROM order_presence`);
    try {
      await expect.poll(left, { timeout: 10_000 }).toEqual([{ tenant_id: "here" }]);
    } finally {
      controller.abort();
      await worker;
    }
    await getPool().query(`DELETE FROM order_presence`);
  });

  it("stops at once when aborted while idle", async () => {
    const controller = new AbortController();
    const worker = runWorker({ signal: controller.signal, intervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopping = performance.now();
    controller.abort();
    await worker;
    expect(performance.now() - stopping).toBeLessThan(1000);
  });
});
