import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/players/[tenant]/[playerId]/route";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { PLAYER_PAGE_SIZE } from "@/lib/players/queries/player-orders";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { PlayerPageModel } from "./player-page";

// The player page's read model through its route: the product must be the caller's (else 404,
// audited, nothing read), the money and its refund rate, the watch banner, the debts, the open cases,
// and the orders a keyset page at a time. The same player id in another product never counts.

useFreshDatabase();

const T = "pp-home";
const AWAY = "pp-away";
const P = "pp-player";
const actor = { actor: "game:server", source: "api" } as const;
const MINUTE = 60_000;

async function paidOrder(orderNo: string, amount: number, createdAgoMin: number, tenantId = T) {
  const order = await createOrder(getPool(), {
    tenantId,
    orderNo,
    playerId: P,
    amount,
    lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }],
    createdAt: new Date(Date.now() - createdAgoMin * MINUTE),
  });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${orderNo}`, amount, ...actor, source: "callback" });
  return order;
}

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec(T, { name: "Home Game" }));
  await ensureTenant(pool, tenantSpec(AWAY));
  await pool.query(`UPDATE tenant_settings SET take_back_rules = '{"currency": "negative-balance", "stamina": "negative-balance", "cosmetic": "write-off", "item": "write-off"}', refund_watch_percent = 20 WHERE tenant_id = $1`, [T]);
  // Refunded after delivery, its gems taken back as a debt...
  const refunded = await paidOrder("PP-REFUNDED", 60_00, 200);
  await transit({ orderId: refunded.id, event: "begin-delivery", bizKey: "", ...actor });
  await grant({ orderId: refunded.id, sku: "gems-60", quantity: 60, grantId: "g-pp", ...actor });
  await transit({ orderId: refunded.id, event: "confirm-delivery", bizKey: "", ...actor });
  await transit({ orderId: refunded.id, event: "request-refund", bizKey: "rf-pp", ...actor });
  await transit({ orderId: refunded.id, event: "confirm-refund", bizKey: "rf-pp", ...actor });
  // ...then a page and one more of paid orders, so the orders take two pages.
  for (let i = 0; i < PLAYER_PAGE_SIZE + 1; i++) await paidOrder(`PP-${String(i).padStart(3, "0")}`, 6_00, 100 - i);
  await pool.query(
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, biz_key, amount, actor, status, created_at, resolved_at, sla_due_at)
     VALUES ($1, $2, 'second-payment', 'txn-stray', 600, 'channel:alipay', 'open', now(), NULL, now() + interval '1 hour')`,
    [T, refunded.id],
  );
  // The same player id in another product: never on this page.
  await paidOrder("PP-AWAY", 999_00, 10, AWAY);
});

async function playerPage(query = "", tenant = T, playerId = P): Promise<{ status: number; model: PlayerPageModel | null }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/players/${tenant}/${playerId}${query}`), { params: Promise.resolve({ tenant, playerId }) });
  return { status: response.status, model: response.ok ? superjson.parse<PlayerPageModel>(await response.text()) : null };
}

const denied = () => getPrisma().auditEvent.count({ where: { action: "access.denied" } });

describe("GET /api/console/players/{tenant}/{playerId}", () => {
  it("sums the player's money in this product only, with the refund rate, the debts and the open cases", async () => {
    signInAs("agent", [T]);
    const { status, model } = await playerPage();
    expect(status).toBe(200);
    const m = model!;
    expect(m.productName).toBe("Home Game");
    const paid = 60_00 + (PLAYER_PAGE_SIZE + 1) * 6_00;
    expect(m.money).toEqual([{ currency: "CNY", orders: PLAYER_PAGE_SIZE + 2, paidOrders: PLAYER_PAGE_SIZE + 2, paid, refundedOrders: 1, refunded: 60_00, rate: 60_00 / paid }]);
    expect(m.firstOrderAt).toBeInstanceOf(Date);
    // ¥60 of ¥366 paid refunded is 16%: under the product's 20% threshold.
    expect(m.refundWatch).toBeNull();
    expect(m.debts).toMatchObject([{ sku: "gems-60", owed: 60, orders: [{ orderNo: "PP-REFUNDED", owed: 60 }] }]);
    expect(m.exceptionCount).toBe(1);
    expect(m.exceptions).toMatchObject([{ orderNo: "PP-REFUNDED", kind: "second-payment", status: "open" }]);
    expect(m.storeEvents).toEqual({ events: [], total: 0, refunds: 0, reversals: 0 });
    expect(JSON.stringify(m)).not.toContain("PP-AWAY");
  });

  it("puts the player on the watch list once the product's threshold is reached", async () => {
    await getPool().query(`UPDATE tenant_settings SET refund_watch_percent = 15 WHERE tenant_id = $1`, [T]);
    try {
      signInAs("agent", [T]);
      const { model } = await playerPage();
      expect(model!.refundWatch).toMatchObject({ threshold: 15, currency: "CNY" });
    } finally {
      await getPool().query(`UPDATE tenant_settings SET refund_watch_percent = 20 WHERE tenant_id = $1`, [T]);
    }
  });

  it("pages the orders by the address's cursor, newest first, and reads a cursor it cannot decode as the newest page", async () => {
    signInAs("agent", [T]);
    const first = (await playerPage()).model!.orders;
    expect(first.firstPage).toBe(true);
    expect(first.rows).toHaveLength(PLAYER_PAGE_SIZE);
    expect(first.rows[0]!.orderNo).toBe(`PP-${String(PLAYER_PAGE_SIZE).padStart(3, "0")}`);
    expect(first.rows[0]).not.toHaveProperty("cursor");
    expect(first.newer).toBeNull();
    expect(first.older).toEqual(expect.any(String));

    const older = (await playerPage(`?after=${encodeURIComponent(first.older!)}`)).model!.orders;
    expect(older.firstPage).toBe(false);
    expect(older.rows.map((o) => o.orderNo)).toEqual(["PP-000", "PP-REFUNDED"]);
    expect(older.older).toBeNull();
    expect(older.newer).toEqual(expect.any(String));

    const back = (await playerPage(`?before=${encodeURIComponent(older.newer!)}`)).model!.orders;
    expect(back.rows.map((o) => o.orderNo)).toEqual(first.rows.map((o) => o.orderNo));

    const junk = (await playerPage("?after=yesterday")).model!.orders;
    expect(junk.firstPage).toBe(true);
    expect(junk.rows.map((o) => o.orderNo)).toEqual(first.rows.map((o) => o.orderNo));
  });

  it("is not found, audited, for a caller whose products do not include the player's", async () => {
    const before = await denied();
    signInAs("agent", [AWAY]);
    expect((await playerPage()).status).toBe(404);
    expect(await denied()).toBe(before + 1);
    // Their own product's player of that id is theirs to read.
    const { model } = await playerPage("", AWAY);
    expect(model!.money).toMatchObject([{ paid: 999_00, refunded: 0, rate: 0 }]);
    expect(model!.orders.rows.map((o) => o.orderNo)).toEqual(["PP-AWAY"]);
  });

  it("refuses a role without orders:view; a player with no orders here is an empty page", async () => {
    signInAs("admin", [T]);
    expect((await playerPage()).status).toBe(403);
    signInAs("manager", [T]);
    const { model } = await playerPage("", T, "nobody");
    expect(model).toMatchObject({ money: [], firstOrderAt: null, debts: [], exceptionCount: 0, orders: { rows: [], firstPage: true, newer: null, older: null } });
  });
});
