import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { grant } from "@/lib/orders/grant";
import type { LineKind } from "@/lib/orders/take-back";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { playerDebts } from "./player-debts";

useFreshDatabase();

// Player "debtor" in `debts`, whose currency and stamina are taken back as debts (cosmetics written
// off): a refunded order (a debt of 60 gems, a written-off skin), a refund the store then reversed
// (no debt left), a stamina refund; the same player id in another product, and another player here.

const T = "debts";
const P = "debtor";
const actor = { actor: "game:server", source: "api" } as const;

async function refunded(key: string, lines: { sku: string; kind: LineKind; quantity: number }[], options: { tenantId?: string; playerId?: string; reversed?: boolean } = {}) {
  const order = await createOrder(getPool(), { tenantId: options.tenantId ?? T, orderNo: key, playerId: options.playerId ?? P, lines });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${key}`, amount: order.amount, ...actor, source: "callback" });
  await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", ...actor });
  for (const line of lines) await grant({ orderId: order.id, sku: line.sku, quantity: line.quantity, grantId: `g-${line.sku}`, ...actor });
  await transit({ orderId: order.id, event: "confirm-delivery", bizKey: "", ...actor });
  await transit({ orderId: order.id, event: "request-refund", bizKey: `rf-${key}`, ...actor });
  const confirmed = await transit({ orderId: order.id, event: "confirm-refund", bizKey: `rf-${key}`, ...actor });
  expect(confirmed.result, key).toBe("applied");
  if (options.reversed) {
    const reversed = await transit({ orderId: order.id, event: "reverse-refund", bizKey: `rev-${key}`, actor: "store:appstore", source: "store" });
    expect(reversed.result, key).toBe("applied");
  }
}

beforeAll(async () => {
  const pool = getPool();
  for (const id of [T, "elsewhere"]) await ensureTenant(pool, tenantSpec(id));
  await pool.query(`UPDATE tenant_settings SET take_back_rules = '{"currency": "negative-balance", "stamina": "negative-balance", "cosmetic": "write-off", "item": "write-off"}'`);
  await refunded("D-1", [
    { sku: "gems-60", kind: "currency", quantity: 60 },
    { sku: "skin-1", kind: "cosmetic", quantity: 1 },
  ]);
  await refunded("D-2", [{ sku: "gems-60", kind: "currency", quantity: 60 }], { reversed: true });
  await refunded("D-3", [{ sku: "stamina-5", kind: "stamina", quantity: 5 }]);
  await refunded("D-4", [{ sku: "gems-60", kind: "currency", quantity: 60 }]);
  await refunded("X-1", [{ sku: "gems-60", kind: "currency", quantity: 60 }], { tenantId: "elsewhere" });
  await refunded("O-1", [{ sku: "gems-60", kind: "currency", quantity: 60 }], { playerId: "someone-else" });
});

describe("a player's outstanding debts", () => {
  it("sums, per sku, what was taken back as a debt less what was given back, naming the orders that still owe", async () => {
    const debts = await playerDebts(T, P);
    expect(debts.map(({ orders, ...d }) => ({ ...d, orders: orders.map((o) => [o.orderNo, o.owed]) }))).toEqual([
      { sku: "gems-60", kind: "currency", owed: 120, orders: [["D-4", 60], ["D-1", 60]] },
      { sku: "stamina-5", kind: "stamina", owed: 5, orders: [["D-3", 5]] },
    ]);
    // The reversed refund's rows are there, and cancel out.
    const { rows } = await getPool().query(`SELECT units, rule FROM take_backs t JOIN orders o ON o.id = t.order_id WHERE o.order_no = 'D-2' ORDER BY t.id`);
    expect(rows).toEqual([
      { units: -60, rule: "negative-balance" },
      { units: 60, rule: "negative-balance" },
    ]);
  });

  it("is empty for a player with no debt, and never counts another product's", async () => {
    expect(await playerDebts(T, "nobody")).toEqual([]);
    expect(await playerDebts("elsewhere", P)).toMatchObject([{ sku: "gems-60", owed: 60, orders: [{ orderNo: "X-1" }] }]);
    expect(await playerDebts(T, "someone-else")).toMatchObject([{ sku: "gems-60", owed: 60, orders: [{ orderNo: "O-1" }] }]);
  });
});
