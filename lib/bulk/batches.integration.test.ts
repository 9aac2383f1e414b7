import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { batchItems, batchSummary, listBatches, startBatch, previewBatch, runBatchChunk } from "./batches";

useFreshDatabase();

const LINES = [
  { sku: "gems-60", kind: "currency", quantity: 60 },
  { sku: "stamina-5", kind: "stamina", quantity: 5 },
] as const;

async function paidOrders(n: number): Promise<string[]> {
  const orderNos: string[] = [];
  for (let i = 0; i < n; i++) {
    const order = await createOrder(getPool(), { tenantId: "bulk", amount: 6_00, lines: LINES });
    await transit({ orderId: order.id, event: "pay", bizKey: `t-${order.id}`, amount: 6_00, actor: "channel", source: "callback" });
    orderNos.push(order.orderNo);
  }
  return orderNos;
}

/** What the bulk page does: chunks until nothing is pending (another runner may hold some for a moment). */
async function runUntilDone(batchId: string, actor: string): Promise<number> {
  let handled = 0;
  for (;;) {
    handled += await runBatchChunk({ batchId, actor, limit: 5 });
    if ((await batchSummary(batchId))!.counts.pending === 0) return handled;
  }
}

async function grantTotals(orderNos: readonly string[]) {
  const { rows } = await getPool().query(
    `SELECT count(*)::int AS rows, sum(g.quantity)::int AS total FROM grants g JOIN orders o ON o.id = g.order_id WHERE o.order_no = ANY($1)`,
    [orderNos],
  );
  return rows[0];
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("bulk"));
  await ensureTenant(getPool(), tenantSpec("bulk-other"));
});

describe("bulk compensation", () => {
  it("the dry run says per order what would happen or why not, and writes nothing", async () => {
    const [paid] = await paidOrders(1);
    const unpaid = (await createOrder(getPool(), { tenantId: "bulk", lines: LINES })).orderNo;

    const preview = await previewBatch("bulk", [paid!, unpaid, "NOPE-1"]);

    expect(preview).toEqual([
      {
        orderNo: paid,
        state: "paid",
        willApply: true,
        steps: [
          { kind: "begin-delivery" },
          { kind: "grant", sku: "gems-60", quantity: 60 },
          { kind: "grant", sku: "stamina-5", quantity: 5 },
          { kind: "confirm-delivery" },
        ],
      },
      { orderNo: unpaid, state: "created", willApply: false, problem: { kind: "not-paid" } },
      { orderNo: "NOPE-1", state: null, willApply: false, problem: { kind: "order-not-found", orderNo: "NOPE-1" } },
    ]);
    expect(await grantTotals([paid!])).toEqual({ rows: 0, total: null });
  });

  it("two people running the same batch at once: every order handled once, nothing granted twice; a rerun applies nothing", async () => {
    const orderNos = await paidOrders(30);
    const batchId = randomUUID();
    await startBatch({ batchId, tenantId: "bulk", orderNos: [...orderNos, "NOPE-2"], reason: "outage 12:00-12:40", actor: "staff:ops@example.com" });
    // The same batch submitted twice adds nothing.
    await startBatch({ batchId, tenantId: "bulk", orderNos, reason: "outage 12:00-12:40", actor: "staff:ops@example.com" });

    const [a, b] = await Promise.all([runUntilDone(batchId, "staff:ops@example.com"), runUntilDone(batchId, "staff:manager@example.com")]);

    expect(a + b).toBe(31);
    expect(await batchSummary(batchId)).toEqual({
      batchId,
      tenantId: "bulk",
      reason: "outage 12:00-12:40",
      total: 31,
      counts: { pending: 0, applied: 30, "nothing-to-do": 0, refused: 1, failed: 0 },
    });
    expect(await grantTotals(orderNos)).toEqual({ rows: 60, total: 30 * 65 });
    const { rows } = await getPool().query(`SELECT state, count(*)::int AS n FROM orders WHERE order_no = ANY($1) GROUP BY state`, [orderNos]);
    expect(rows).toEqual([{ state: "delivered", n: 30 }]);

    // The batch's audit facts: started twice (the second start added nothing), finished once.
    const facts = await getPool().query(`SELECT action, detail FROM audit_events WHERE target = $1 ORDER BY id`, [`bulk:${batchId}`]);
    expect(facts.rows.map((r) => r.action)).toEqual(["bulk.started", "bulk.started", "bulk.finished"]);
    expect(facts.rows[2].detail).toMatchObject({ total: 31, applied: 30, refused: 1, pending: 0 });

    expect(await runUntilDone(batchId, "staff:ops@example.com")).toBe(0);
    expect(await grantTotals(orderNos)).toEqual({ rows: 60, total: 30 * 65 });
    const items = await batchItems(batchId);
    expect(items.map((i) => i.position)).toEqual(Array.from({ length: 31 }, (_, i) => i));
    expect(items.at(-1)).toMatchObject({ orderNo: "NOPE-2", status: "refused", detail: { problem: { kind: "order-not-found", orderNo: "NOPE-2" } } });
    expect(items[0]!.detail).toMatchObject({ steps: [{ step: { kind: "begin-delivery" }, result: "applied" }, {}, {}, { step: { kind: "confirm-delivery" }, result: "applied" }] });
  });

  it("lists past batches of the caller's products, newest first, with their results per status", async () => {
    const orderNos = await paidOrders(2);
    const older = randomUUID();
    await startBatch({ batchId: older, tenantId: "bulk", orderNos: [orderNos[0]!, "NOPE-3"], reason: "outage 09:00-09:20", actor: "staff:ops@example.com" });
    await runUntilDone(older, "staff:ops@example.com");
    const newer = randomUUID();
    await startBatch({ batchId: newer, tenantId: "bulk", orderNos: [orderNos[1]!], reason: "outage 10:00-10:05", actor: "staff:manager@example.com" });
    const elsewhere = (await createOrder(getPool(), { tenantId: "bulk-other", lines: LINES })).orderNo;
    await startBatch({ batchId: randomUUID(), tenantId: "bulk-other", orderNos: [elsewhere], reason: "not yours", actor: "staff:ops@example.com" });

    const listed = await listBatches(["bulk"]);

    expect(listed.slice(0, 2)).toEqual([
      {
        batchId: newer,
        tenantId: "bulk",
        createdBy: "staff:manager@example.com",
        reason: "outage 10:00-10:05",
        total: 1,
        createdAt: expect.any(Date),
        counts: { pending: 1, applied: 0, "nothing-to-do": 0, refused: 0, failed: 0 },
      },
      expect.objectContaining({ batchId: older, total: 2, counts: { pending: 0, applied: 1, "nothing-to-do": 0, refused: 1, failed: 0 } }),
    ]);
    expect(listed.every((b) => b.tenantId === "bulk")).toBe(true);
    expect(await listBatches([])).toEqual([]);
  });
});
