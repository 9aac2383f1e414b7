import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import type { GrantRequest } from "./delivery-coordinator";
import { startReceiver, type Receiver } from "./test-receiver";

// The worker as it runs in production — separate processes — killed with SIGKILL at random moments
// in the middle of delivery, restarted, two at a time. Nothing may be granted twice, in the ledger
// or at the game server, and every order must end up delivered.

useFreshDatabase();

const ORDERS = 40;
const ROUNDS = 4;
let receiver: Receiver;
const grantedToPlayer = new Map<string, number>();
const seen = new Set<string>();
const children = new Set<ChildProcess>();

beforeAll(async () => {
  // A slowish game server (5–40 ms a call), so kills land while calls are in flight; it grants each
  // grantId once and answers repeats with 200, as the contract asks.
  receiver = await startReceiver(async (request) => {
    await sleep(5 + Math.random() * 35);
    const body = JSON.parse(request.body) as GrantRequest;
    if (!seen.has(body.grantId)) {
      seen.add(body.grantId);
      const line = `${body.orderNo}:${body.sku}`;
      grantedToPlayer.set(line, (grantedToPlayer.get(line) ?? 0) + body.quantity);
    }
    return 200;
  });
  await ensureTenant(getPool(), tenantSpec("crashy", { deliveryMode: "managed", grantEndpointUrl: `${receiver.url}/grants` }));
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await receiver.close();
});

function startWorker(): ChildProcess {
  // node itself, not the tsx wrapper: a SIGKILL must hit the process doing the work.
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/jobs/worker-main.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, LOG_LEVEL: "silent", WORKER_INTERVAL_MS: "50", NODE_ENV: "production" },
    stdio: "ignore",
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function delivered(ids: readonly number[]): Promise<number> {
  const { n } = await one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND state = 'delivered'`, [ids]);
  return n;
}

describe("worker processes killed with SIGKILL during delivery", () => {
  it("never over-grant a line, and every order finishes", { timeout: 120_000 }, async () => {
    const lines = [
      { sku: "gems-60", kind: "currency", quantity: 60 },
      { sku: "stamina-5", kind: "stamina", quantity: 5 },
      { sku: "skin-1", kind: "cosmetic", quantity: 1 },
    ] as const;
    const orders = await Promise.all(
      Array.from({ length: ORDERS }, async () => {
        const order = await createOrder(getPool(), { tenantId: "crashy", lines });
        await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: order.amount, actor: "channel", source: "callback" });
        return order;
      }),
    );
    const ids = orders.map((o) => o.id);

    let kills = 0;
    for (let round = 0; round < ROUNDS && (await delivered(ids)) < ORDERS; round++) {
      const pair = [startWorker(), startWorker()];
      // Let this round's workers make a random number of grant calls, then kill both mid-flight.
      const target = receiver.requests.length + 1 + Math.floor(Math.random() * 20);
      await expect.poll(() => receiver.requests.length, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(target);
      await sleep(Math.random() * 40);
      for (const child of pair) child.kill("SIGKILL");
      await Promise.all(pair.map(exited));
      kills += pair.length;
    }
    expect(kills).toBeGreaterThan(0);

    // A last worker finishes the job, then stops cleanly on SIGTERM.
    const last = startWorker();
    await expect.poll(() => delivered(ids), { timeout: 60_000, interval: 100 }).toBe(ORDERS);
    last.kill("SIGTERM");
    expect(await exited(last)).toBe(0);

    const lineRows = await rows(
      getPool(),
      z.object({ orderNo: z.string(), sku: z.string(), quantity: z.number(), granted: z.number(), grants: z.number() }),
      `SELECT o.order_no AS "orderNo", l.sku, l.quantity,
              COALESCE(sum(g.quantity), 0)::int AS granted, count(g.id)::int AS grants
       FROM order_lines l JOIN orders o ON o.id = l.order_id
       LEFT JOIN grants g ON g.order_id = l.order_id AND g.sku = l.sku
       WHERE o.id = ANY($1) GROUP BY o.order_no, l.sku, l.quantity`,
      [ids],
    );
    expect(lineRows).toHaveLength(ORDERS * lines.length);
    for (const line of lineRows) {
      // The ledger: exactly the line, in one grant. The game server: exactly the line, too.
      expect(line).toMatchObject({ granted: line.quantity, grants: 1 });
      expect(grantedToPlayer.get(`${line.orderNo}:${line.sku}`)).toBe(line.quantity);
    }
    const transitions = await rows(
      getPool(),
      z.object({ event: z.string(), n: z.number() }),
      `SELECT event, count(*)::int AS n FROM order_transitions WHERE order_id = ANY($1) GROUP BY event ORDER BY event`,
      [ids],
    );
    expect(transitions).toEqual([
      { event: "begin-delivery", n: ORDERS },
      { event: "confirm-delivery", n: ORDERS },
      { event: "pay", n: ORDERS },
    ]);
  });
});
