import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { timeoutCloseKey, withClaimer } from "./claim";
import { runConcurrently } from "./run-concurrently";
import { closeExpiredOrders, type TimeoutCloseReport } from "./timeout-close";

useFreshDatabase();

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);
const NOTHING: TimeoutCloseReport = { closed: 0, stale: 0, illegal: 0, duplicate: 0, rejected: 0, notFound: 0, failed: 0, skipped: 0 };

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("long", { unpaidTimeoutSeconds: 30 * 60 }));
  await ensureTenant(pool, tenantSpec("short", { unpaidTimeoutSeconds: 15 * 60 }));
  await ensureTenant(pool, tenantSpec("race"));
  await ensureTenant(pool, tenantSpec("many"));
});

async function orders(tenantId: string, n: number, createdAt: Date) {
  return Promise.all(Array.from({ length: n }, () => createOrder(getPool(), { tenantId, createdAt })));
}

const count = z.object({ n: z.number() });

async function states(ids: readonly number[]): Promise<Record<string, number>> {
  const counts = await rows(
    getPool(),
    z.object({ state: z.string(), n: z.number() }),
    `SELECT state, count(*)::int AS n FROM orders WHERE id = ANY($1) GROUP BY state`,
    [ids],
  );
  return Object.fromEntries(counts.map((r) => [r.state, r.n]));
}

const transitionCountRow = z.object({ event: z.string(), bizKey: z.string(), actor: z.string(), source: z.string(), from: z.string(), n: z.number() });

function transitions(ids: readonly number[]) {
  return rows(
    getPool(),
    transitionCountRow,
    `SELECT event, biz_key AS "bizKey", actor, source, from_state AS "from", count(*)::int AS n
     FROM order_transitions WHERE order_id = ANY($1) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2`,
    [ids],
  );
}

const pay = (orderId: number, amount: number) =>
  transit({ orderId, event: "pay", bizKey: `txn-${orderId}`, amount, actor: "channel:alipay", source: "callback" });

describe("closeExpiredOrders", () => {
  it("closes exactly the created orders past their tenant's timeout and inside the 30-day bound", async () => {
    const expiredLong = await orders("long", 5, ago(31 * MINUTE));
    const youngLong = await orders("long", 3, ago(20 * MINUTE));
    const tooOld = await orders("long", 2, ago(31 * DAY));
    const paidLong = await orders("long", 2, ago(40 * MINUTE));
    for (const o of paidLong) expect((await pay(o.id, o.amount)).result).toBe("applied");
    const expiredShort = await orders("short", 4, ago(20 * MINUTE));
    const youngShort = await orders("short", 2, ago(10 * MINUTE));

    // A batch of 2 makes the keyset scan take several rounds per tenant.
    const report = await closeExpiredOrders({ now, batchSize: 2 });

    expect(report).toEqual({ ...NOTHING, closed: 9 });
    const expired = [...expiredLong, ...expiredShort].map((o) => o.id);
    expect(await states(expired)).toEqual({ closed: 9 });
    expect(await transitions(expired)).toEqual([
      { event: "close", bizKey: "timeout", actor: "system:timeout-close", source: "job", from: "created", n: 9 },
    ]);
    expect(await states([...youngLong, ...tooOld, ...youngShort].map((o) => o.id))).toEqual({ created: 7 });
    expect(await states(paidLong.map((o) => o.id))).toEqual({ paid: 2 });
    expect(await one(getPool(), count, `SELECT count(*)::int AS n FROM outbox_messages WHERE order_id = ANY($1)`, [expired])).toEqual({ n: 9 });

    // Nothing is left to do: a second run finds nothing.
    expect(await closeExpiredOrders({ now, batchSize: 2 })).toEqual(NOTHING);
  });

  it("a payment racing the job always wins where it lands first: one applied transition per order", async () => {
    const racing = await orders("race", 200, ago(45 * MINUTE));

    // The job scans up from the lowest id while the channel pays down from the highest, eight at a
    // time: they meet somewhere in the middle, where both reach for the same orders at once.
    const pays: Awaited<ReturnType<typeof pay>>[] = [];
    const [report] = await Promise.all([
      closeExpiredOrders({ now, batchSize: 20 }),
      runConcurrently([...racing].reverse(), 8, async (o) => void pays.push(await pay(o.id, o.amount))),
    ]);

    const ids = racing.map((o) => o.id);
    const paid = pays.filter((p) => p.result === "applied").length;
    // The losing pays hit a closed order: illegal, each filed as money on a closed order.
    expect(pays.filter((p) => p.result === "illegal")).toHaveLength(report.closed);
    expect(paid + report.closed).toBe(200);
    expect(paid).toBeGreaterThan(0);
    expect(report.closed).toBeGreaterThan(0);
    expect(await states(ids)).toEqual(Object.fromEntries(Object.entries({ paid, closed: report.closed }).filter(([, n]) => n > 0)));
    const logged = await one(
      getPool(),
      z.object({ n: z.number(), orders: z.number() }),
      `SELECT count(*)::int AS n, count(DISTINCT order_id)::int AS orders FROM order_transitions WHERE order_id = ANY($1)`,
      [ids],
    );
    expect(logged).toEqual({ n: 200, orders: 200 });
    const exceptions = await one(
      getPool(),
      count,
      `SELECT count(*)::int AS n FROM order_exceptions WHERE order_id = ANY($1) AND kind = 'payment-after-close'`,
      [ids],
    );
    expect(exceptions.n).toBe(report.closed);
    // Orders paid after the scan but before the lock are the job's stale ones; it never overwrote one.
    expect(report).toMatchObject({ illegal: 0, duplicate: 0, rejected: 0, failed: 0 });
  });

  it("three workers over the same 300 expired orders split them: 300 closes, none attempted twice", async () => {
    const expired = await orders("many", 300, ago(2 * 60 * MINUTE));

    const reports = await Promise.all([1, 2, 3].map(() => closeExpiredOrders({ now, batchSize: 25 })));

    const sum = (key: keyof TimeoutCloseReport) => reports.reduce((total, r) => total + r[key], 0);
    expect(sum("closed")).toBe(300);
    expect(sum("duplicate")).toBe(0);
    expect(sum("stale")).toBe(0);
    expect(sum("illegal")).toBe(0);
    expect(sum("failed")).toBe(0);
    // Split, not repeated: every worker that got a batch did its own share.
    expect(reports.filter((r) => r.closed > 0).length).toBeGreaterThanOrEqual(2);
    const ids = expired.map((o) => o.id);
    expect(await states(ids)).toEqual({ closed: 300 });
    expect(await transitions(ids)).toEqual([
      { event: "close", bizKey: "timeout", actor: "system:timeout-close", source: "job", from: "created", n: 300 },
    ]);
  });

  it("a worker whose claim another worker holds skips those orders and leaves them for their holder", async () => {
    const held = await orders("many", 10, ago(2 * 60 * MINUTE));
    const ids = held.map((o) => o.id);
    // Another worker holds the claim on these ten while this one runs.
    await withClaimer(getPool(), async (other) => {
      expect(await other.tryLock(held.map((o) => ({ id: o.id, key: timeoutCloseKey(o.id) })))).toEqual(ids);
      expect(await closeExpiredOrders({ now })).toEqual({ ...NOTHING, skipped: 10 });
    });
    expect(await closeExpiredOrders({ now })).toEqual({ ...NOTHING, closed: 10 });
  });
});
