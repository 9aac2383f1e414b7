import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { repairDelivery } from "./repair-delivery";
import { grant } from "./grant";
import { transit } from "./transit";

useFreshDatabase();

const LINES = [
  { sku: "gems-300", kind: "currency", quantity: 300 },
  { sku: "skin-7", kind: "cosmetic", quantity: 1 },
] as const;

async function paidOrder() {
  const order = await createOrder(getPool(), { tenantId: "repair", amount: 68_00, lines: LINES });
  await transit({ orderId: order.id, event: "pay", bizKey: `t-${order.id}`, amount: 68_00, actor: "channel", source: "callback" });
  return order;
}

const repair = (orderNo: string) =>
  repairDelivery({ tenantId: "repair", orderNo, actor: "staff:ops@example.com", source: "console", reason: "stuck after outage", keyPrefix: "repair" });

async function ledger(orderId: number) {
  const { rows } = await getPool().query(`SELECT sku, sum(quantity)::int AS total, count(*)::int AS rows FROM grants WHERE order_id = $1 GROUP BY sku ORDER BY sku`, [
    orderId,
  ]);
  return rows;
}

beforeAll(() => ensureTenant(getPool(), tenantSpec("repair")));

describe("repairDelivery", () => {
  it("begins, grants every pending line and confirms; each step recorded", async () => {
    const order = await paidOrder();

    const result = await repair(order.orderNo);

    expect(result).toEqual({
      result: "completed",
      steps: [
        { step: { kind: "begin-delivery" }, result: "applied" },
        { step: { kind: "grant", sku: "gems-300", quantity: 300 }, result: "applied" },
        { step: { kind: "grant", sku: "skin-7", quantity: 1 }, result: "applied" },
        { step: { kind: "confirm-delivery" }, result: "applied" },
      ],
    });
    expect(await ledger(order.id)).toEqual([
      { sku: "gems-300", total: 300, rows: 1 },
      { sku: "skin-7", total: 1, rows: 1 },
    ]);
    const { rows } = await getPool().query(`SELECT event, actor, reason FROM order_transitions WHERE order_id = $1 ORDER BY id`, [order.id]);
    expect(rows.map((r) => r.event)).toEqual(["pay", "begin-delivery", "confirm-delivery"]);
    expect(rows.slice(1).every((r) => r.actor === "staff:ops@example.com" && r.reason === "stuck after outage")).toBe(true);
  });

  it("a rerun after a partial failure completes the rest and never grants twice", async () => {
    const order = await paidOrder();
    // A first run got as far as beginning delivery and the first grant, then died.
    await transit({ orderId: order.id, event: "begin-delivery", bizKey: "repair:begin-delivery:v1", actor: "staff:ops", source: "console" });
    await grant({ orderId: order.id, sku: "gems-300", quantity: 300, grantId: "repair:gems-300:0", actor: "staff:ops", source: "console" });

    const rerun = await repair(order.orderNo);
    const again = await repair(order.orderNo);

    expect(rerun).toMatchObject({ result: "completed" });
    expect(rerun.result === "completed" && rerun.steps.map((s) => s.step.kind)).toEqual(["grant", "confirm-delivery"]);
    expect(again).toEqual({ result: "not-possible", nothingToDo: true, problem: { kind: "already-delivered" } });
    expect(await ledger(order.id)).toEqual([
      { sku: "gems-300", total: 300, rows: 1 },
      { sku: "skin-7", total: 1, rows: 1 },
    ]);
  });

  it("10 concurrent repairs of one order: one completes, the others are told it is in progress or done; nothing doubles", async () => {
    const order = await paidOrder();

    const results = await Promise.all(Array.from({ length: 10 }, () => repair(order.orderNo)));

    const kinds = results.map((r) => r.result);
    expect(kinds.filter((k) => k === "completed")).toHaveLength(1);
    expect(kinds.filter((k) => k !== "completed" && k !== "in-progress" && k !== "not-possible")).toEqual([]);
    expect(kinds.filter((k) => k === "in-progress").length).toBeGreaterThan(0);
    expect(await ledger(order.id)).toEqual([
      { sku: "gems-300", total: 300, rows: 1 },
      { sku: "skin-7", total: 1, rows: 1 },
    ]);
    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM order_transitions WHERE order_id = $1`, [order.id]);
    expect(rows[0].n).toBe(3);
  });

  it("refuses orders that may not be delivered, saying why", async () => {
    const unpaid = await createOrder(getPool(), { tenantId: "repair", lines: LINES });
    expect(await repair(unpaid.orderNo)).toEqual({ result: "not-possible", nothingToDo: false, problem: { kind: "not-paid" } });
    expect(await repair("NO-SUCH-ORDER")).toEqual({ result: "not-found" });
  });
});
