import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { one } from "@/lib/db/sql";
import { transit } from "@/lib/orders/transit";
import type { OrderSnapshot } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { heartbeat, leave, sweepPresence } from "./order-presence";
import { PRESENCE_TTL_SECONDS } from "./timing";

// Presence as the database keeps it: who else is on the order, under the expiry the database's own
// clock decides (a short TTL instead of long sleeps), cleaned up by the next poll and by the sweep,
// and the changes a page that fell behind is told about.

useFreshDatabase();

const TENANT = "presence-home";
let order: OrderSnapshot;
let quiet: OrderSnapshot;
let ann: number;
let bo: number;

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec(TENANT));
  order = await createOrder(pool, { tenantId: TENANT, orderNo: "P-1" });
  quiet = await createOrder(pool, { tenantId: TENANT, orderNo: "P-QUIET" });
  const staff = (email: string, name: string, role: string) =>
    getPrisma().staffUser.create({ data: { email, name, passwordHash: "x", role, tenantIds: [TENANT] } }).then((row) => Number(row.id));
  ann = await staff("ann@example.com", "Ann Agent", "agent");
  bo = await staff("bo@example.com", "Bo Ops", "ops");
});

/** The order's rows of tabs that have not left (a left tab's row is kept, marked, until its expiry). */
const rowsOf = (orderId: number) =>
  one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence WHERE order_id = $1 AND left_at IS NULL`, [orderId]).then((r) => r.n);

/** Waits until the database's clock has passed the short expiries written so far (the full-TTL rows stay live). */
async function expiriesPassed(): Promise<void> {
  const pending = () =>
    one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence WHERE expires_at > now() AND expires_at <= now() + interval '2 seconds'`).then((r) => r.n);
  await expect.poll(pending, { timeout: 5_000, interval: 50 }).toBe(0);
}

describe("presence on an order", () => {
  it("shows each person the others on the order — name, role and since when — never themselves, and each colleague once", async () => {
    const annTab = randomUUID();
    const first = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab, since: order.version });
    expect(first).toMatchObject({ state: "created", version: order.version, changes: [], present: [] });

    // Bo has the order open in two tabs: Ann sees Bo once, from the earlier tab's arrival.
    const boTabs = [randomUUID(), randomUUID()];
    const boSees = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId: boTabs[0]!, since: order.version });
    expect(boSees?.present).toEqual([{ name: "Ann Agent", role: "agent", since: expect.any(String) }]);
    await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId: boTabs[1]!, since: order.version });
    const annSees = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab, since: order.version });
    expect(annSees?.present).toEqual([{ name: "Bo Ops", role: "ops", since: expect.any(String) }]);
    // A renewed row keeps its arrival: Ann's `since` is from her first poll.
    const annArrived = await one(getPool(), z.object({ since: z.date() }), `SELECT since FROM order_presence WHERE staff_id = $1 AND tab_id = $2`, [ann, annTab]);
    expect(new Date(boSees!.present[0]!.since).getTime()).toBe(annArrived.since.getTime());
    expect(await rowsOf(order.id)).toBe(3);

    // Bo leaves from both tabs: Ann sees nobody, and Bo's rows are gone, not waiting for their expiry.
    for (const tabId of boTabs) expect(await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId })).toBe(1);
    expect((await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab, since: order.version }))?.present).toEqual([]);
    expect(await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab })).toBe(1);
    expect(await rowsOf(order.id)).toBe(0);
  });

  it("renews and removes only the caller's own row: the same tab id from someone else is their own row", async () => {
    const tabId = randomUUID();
    await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId, since: 0 });
    // Bo sending Ann's tab id neither takes over nor ends Ann's presence: his leave marks a row of his own.
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId });
    const boSees = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId, since: 0 });
    expect(boSees?.present.map((p) => p.name)).toEqual(["Ann Agent"]);
    expect(await rowsOf(order.id)).toBe(2);
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId });
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId });
    expect(await rowsOf(order.id)).toBe(0);
  });

  it("a poll that was on its way when the tab left changes nothing; the tab's next poll, once it is shown again, brings it back", async () => {
    const call = { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId: randomUUID() };
    const annTab = randomUUID();
    const annSees = () => heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab, since: 0 }).then((live) => live?.present.map((p) => p.name));
    const boSince = () => one(getPool(), z.object({ since: z.date() }), `SELECT since FROM order_presence WHERE tab_id = $1`, [call.tabId]).then((r) => r.since.getTime());

    await heartbeat(getPool(), { ...call, seq: 1, since: 0 });
    expect(await annSees()).toEqual(["Bo Ops"]);
    const arrived = await boSince();
    // Poll 2 is sent, then the tab is hidden and says it leaves (3); the leave arrives first.
    expect(await leave(getPool(), { ...call, seq: 3 })).toBe(1);
    await heartbeat(getPool(), { ...call, seq: 2, since: 0 });
    expect(await annSees()).toEqual([]);
    // The same leave again (a retried request) records nothing more.
    expect(await leave(getPool(), { ...call, seq: 3 })).toBe(0);
    // Shown again: its next poll (4) brings Bo back, arrived now rather than at his first poll.
    await heartbeat(getPool(), { ...call, seq: 4, since: 0 });
    expect(await annSees()).toEqual(["Bo Ops"]);
    expect(await boSince()).toBeGreaterThan(arrived);
    expect(await leave(getPool(), { ...call, seq: 5 })).toBe(1);

    // A tab that leaves while its first poll is still on its way is never seen.
    const early = { ...call, tabId: randomUUID() };
    expect(await leave(getPool(), { ...early, seq: 2 })).toBe(1);
    await heartbeat(getPool(), { ...early, seq: 1, since: 0 });
    expect(await annSees()).toEqual([]);
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab });
  });

  it("forgets a tab that stopped polling once its expiry passes on the database's clock; the next poll on the order deletes its row", async () => {
    const gone = randomUUID();
    // A tab whose node died right after this poll: it never says it is leaving.
    await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: bo, tabId: gone, since: 0 }, 0.2);
    const annTab = randomUUID();
    const before = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab, since: 0 });
    expect(before?.present.map((p) => p.name)).toEqual(["Bo Ops"]);
    expect(await rowsOf(order.id)).toBe(2);

    await expiriesPassed();
    const after = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab, since: 0 });
    expect(after?.present).toEqual([]);
    // Ann's poll deleted Bo's expired row and renewed her own for the full TTL.
    expect(await rowsOf(order.id)).toBe(1);
    const mine = await one(getPool(), z.object({ left: z.number() }), `SELECT extract(epoch FROM expires_at - now())::float8 AS left FROM order_presence WHERE tab_id = $1`, [annTab]);
    expect(mine.left).toBeGreaterThan(PRESENCE_TTL_SECONDS - 5);
    expect(mine.left).toBeLessThanOrEqual(PRESENCE_TTL_SECONDS);
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: annTab });
  });

  it("sweeps expired rows of orders nobody polls any more, and the marks of tabs that left, and leaves live ones", async () => {
    // The earlier tests' left marks expire on their own time: counted from none here.
    await getPool().query(`DELETE FROM order_presence`);
    await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-QUIET", staffId: bo, tabId: randomUUID(), since: 0 }, 0.2);
    const left = { tenantId: TENANT, orderNo: "P-QUIET", staffId: ann, tabId: randomUUID() };
    await heartbeat(getPool(), { ...left, since: 0 }, 0.2);
    await leave(getPool(), left, 0.2);
    const live = randomUUID();
    await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: live, since: 0 });
    await expiriesPassed();
    expect(await sweepPresence(getPool())).toBe(2);
    // Every row of the quiet order is gone, the left mark with the rest.
    expect((await getPool().query(`SELECT 1 FROM order_presence WHERE order_id = $1`, [quiet.id])).rowCount).toBe(0);
    expect(await rowsOf(order.id)).toBe(1);
    expect(await sweepPresence(getPool())).toBe(0);
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-1", staffId: ann, tabId: live });
  });

  it("names the changes after the version the page stands on: who (a colleague's name) and what, newest first", async () => {
    const moving = await createOrder(getPool(), { tenantId: TENANT, orderNo: "P-MOVES" });
    await transit({ orderId: moving.id, event: "pay", bizKey: "txn-moves", amount: moving.amount, actor: "channel:wechat", source: "callback" });
    await transit({ orderId: moving.id, event: "request-refund", bizKey: "k-1", actor: "staff:bo@example.com", source: "console", reason: "the player asked" });
    const tabId = randomUUID();
    const behind = await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-MOVES", staffId: ann, tabId, since: 0 });
    expect(behind).toMatchObject({ state: "refunding", version: 2 });
    expect(behind?.changes).toEqual([
      { version: 2, event: "request-refund", from: "paid", to: "refunding", actor: "staff:bo@example.com", name: "Bo Ops", at: expect.any(String) },
      { version: 1, event: "pay", from: "created", to: "paid", actor: "channel:wechat", name: null, at: expect.any(String) },
    ]);
    expect((await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-MOVES", staffId: ann, tabId, since: 1 }))?.changes.map((c) => c.event)).toEqual(["request-refund"]);
    expect((await heartbeat(getPool(), { tenantId: TENANT, orderNo: "P-MOVES", staffId: ann, tabId, since: 2 }))?.changes).toEqual([]);
    await leave(getPool(), { tenantId: TENANT, orderNo: "P-MOVES", staffId: ann, tabId });
  });

  it("answers nothing and writes nothing for an order that does not exist", async () => {
    const before = await one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence`);
    expect(await heartbeat(getPool(), { tenantId: TENANT, orderNo: "NO-SUCH", staffId: ann, tabId: randomUUID(), since: 0 })).toBeNull();
    expect(await heartbeat(getPool(), { tenantId: "another-tenant", orderNo: "P-1", staffId: ann, tabId: randomUUID(), since: 0 })).toBeNull();
    expect(await one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence`)).toEqual(before);
  });
});
