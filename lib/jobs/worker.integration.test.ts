import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { MESSAGE_ID_HEADER } from "./signature";
import { startReceiver, type Receiver } from "./test-receiver";
import { runWorker, type JobName } from "./worker";

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
  it("runs all three jobs until aborted: expired orders close, paid ones are delivered, every event is relayed", async () => {
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

    const worker = runWorker({ signal: controller.signal, intervalMs: 20, onReport: (job) => ran.add(job) });

    const states = async () => {
      const { rows } = await getPool().query<{ state: string; n: number }>(
        `SELECT state, count(*)::int AS n FROM orders WHERE id = ANY($1) GROUP BY state ORDER BY state`,
        [[...expired, ...paid].map((o) => o.id)],
      );
      return rows;
    };
    await expect.poll(states, { timeout: 20_000 }).toEqual([
      { state: "closed", n: 5 },
      { state: "delivered", n: 5 },
    ]);
    // pay, begin, one grant, confirm per paid order; one close per expired order.
    await expect
      .poll(async () => (await getPool().query(`SELECT status, count(*)::int AS n FROM outbox_messages GROUP BY status`)).rows, {
        timeout: 20_000,
      })
      .toEqual([{ status: "delivered", n: 25 }]);

    controller.abort();
    await worker;
    expect([...ran].sort()).toEqual(["delivery", "outbox-relay", "timeout-close"]);
    const hooks = receiver.requests.filter((r) => r.path === "/hooks");
    expect(new Set(hooks.map((r) => r.headers[MESSAGE_ID_HEADER])).size).toBe(25);
    expect(hooks).toHaveLength(25);
    expect(receiver.requests.filter((r) => r.path === "/grants")).toHaveLength(5);
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
