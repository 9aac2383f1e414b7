import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { DAILY_SERIES_SQL, dailySeries, SERIES_DAYS } from "./daily-series";

useFreshDatabase();

const MIN = 60;

/** A transition at `now() - ago` (database clock), written directly: these tests read history, they do not make it. */
async function transition(order: { id: number; tenantId: string }, event: string, agoSeconds: number): Promise<void> {
  await getPool().query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, created_at)
     VALUES ($1, $2, $3, 'x', 'y', $4, 'test', 'api', now() - $5 * interval '1 second')`,
    [order.tenantId, order.id, event, `${event}-${agoSeconds}`, agoSeconds],
  );
}

async function utcDay(agoSeconds: number): Promise<string> {
  const sql = `SELECT to_char((now() - $1 * interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`;
  return (await one(getPool(), z.object({ day: z.string() }), sql, [agoSeconds])).day;
}

beforeAll(async () => {
  const pool = getPool();
  // Lost after paid (5 min) + delivering (10 min) = 15 minutes.
  await ensureTenant(pool, tenantSpec("dash", { maxDwellSeconds: { created: 30 * MIN, paid: 5 * MIN, delivering: 10 * MIN, refunding: 86_400 } }));
  await ensureTenant(pool, tenantSpec("dash-other"));
  await ensureTenant(pool, tenantSpec("dash-nothreshold", { maxDwellSeconds: { created: 30 * MIN } }));
});

describe("dailySeries", () => {
  it("counts lost orders on the day they were paid, and refunds per day, over the last 30 days", async () => {
    const DAY = 86_400;
    const make = () => createOrder(getPool(), { tenantId: "dash" });
    // Delivered 10 minutes after paying: not lost.
    const onTime = await make();
    await transition(onTime, "pay", 2 * DAY);
    await transition(onTime, "confirm-delivery", 2 * DAY - 10 * MIN);
    // Delivered 20 minutes after paying: lost (late), on the pay day.
    const late = await make();
    await transition(late, "pay", 2 * DAY);
    await transition(late, "confirm-delivery", 2 * DAY - 20 * MIN);
    // Never delivered: lost.
    const never = await make();
    await transition(never, "pay", 3 * DAY);
    // Refunded before delivery: lost too (paid, no goods in time).
    const refundedFirst = await make();
    await transition(refundedFirst, "pay", 3 * DAY);
    await transition(refundedFirst, "request-refund", 3 * DAY - MIN);
    await transition(refundedFirst, "confirm-refund", 3 * DAY - 2 * MIN);
    // Paid 5 minutes ago: can still make it, not counted.
    const fresh = await make();
    await transition(fresh, "pay", 5 * MIN);
    // Paid before the window: not read at all.
    const old = await make();
    await transition(old, "pay", 40 * DAY);
    // Refunds today.
    for (const ago of [60, 120]) {
      const refunded = await make();
      await transition(refunded, "confirm-refund", ago);
    }
    // Another tenant's lost order and refund.
    const foreign = await createOrder(getPool(), { tenantId: "dash-other" });
    await transition(foreign, "pay", 2 * DAY);
    await transition(foreign, "confirm-refund", 2 * DAY - MIN);

    const series = await dailySeries("dash");

    expect(series.lostAfterSeconds).toBe(15 * MIN);
    expect(series.days).toHaveLength(SERIES_DAYS);
    expect(series.days.at(-1)!.day).toBe(await utcDay(0));
    const byDay = Object.fromEntries(series.days.map((d) => [d.day, d]));
    const twoDaysAgo = await utcDay(2 * DAY);
    const threeDaysAgo = await utcDay(3 * DAY);
    expect(byDay[twoDaysAgo]!.lost).toBe(1);
    expect(byDay[threeDaysAgo]).toMatchObject({ lost: 2, refunds: 1 });
    expect(series.days.reduce((n, d) => n + d.lost, 0)).toBe(3);
    expect(series.days.reduce((n, d) => n + d.refunds, 0)).toBe(3);
    // Today's refunds are on today's bar (unless the test runs in the minutes after midnight UTC).
    expect(byDay[await utcDay(60)]!.refunds + byDay[await utcDay(120)]!.refunds).toBeGreaterThanOrEqual(2);
  });

  it("counts no lost orders for a tenant without both thresholds, and says so", async () => {
    const order = await createOrder(getPool(), { tenantId: "dash-nothreshold" });
    await transition(order, "pay", 86_400);
    const series = await dailySeries("dash-nothreshold");
    expect(series.lostAfterSeconds).toBeNull();
    expect(series.days.every((d) => d.lost === 0)).toBe(true);
  });

  it("reads order_transitions through an index, never a sequential scan", async () => {
    const pool = getPool();
    await ensureTenant(pool, tenantSpec("dash-bulk"));
    await pool.query(
      `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state)
       SELECT 'dash-bulk', 'B-' || n, 'p', 600, 'CNY', 'delivered' FROM generate_series(1, 4000) n`,
    );
    await pool.query(
      `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, created_at)
       SELECT o.tenant_id, o.id, e.event, 'x', 'y', '', 'test', 'api', now() - (o.id % 90) * interval '1 day' - e.n * interval '1 minute'
       FROM orders o, unnest(ARRAY['pay', 'begin-delivery', 'confirm-delivery', 'request-refund', 'reject-refund']) WITH ORDINALITY AS e(event, n)
       WHERE o.tenant_id = 'dash-bulk'`,
    );
    await pool.query(`ANALYZE orders, order_transitions`);
    // Only the plan's text is searched: its shape needs no more than "a JSON array".
    const explained = await one(pool, z.object({ "QUERY PLAN": z.array(z.unknown()) }), `EXPLAIN (FORMAT JSON) ${DAILY_SERIES_SQL}`, ["dash-bulk", SERIES_DAYS]);
    const plan = JSON.stringify(explained["QUERY PLAN"]);
    expect(plan).toContain('"Relation Name":"order_transitions"');
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"[^{}]*"Relation Name":"order_transitions"/);
  });
});
