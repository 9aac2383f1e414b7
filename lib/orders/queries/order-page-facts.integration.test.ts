import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { requestRefundApproval, decideRefundApproval } from "@/lib/approvals/refund-approvals";
import { refusedRefundsByApproval } from "@/lib/approvals/refused-refunds";
import { getPool } from "@/lib/db/pool";
import { dwellOf } from "@/lib/orders/stuck";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { getOrderPageFacts } from "./order-page-facts";
import { searchOrders } from "./search-orders";

useFreshDatabase();

const MINUTE = 60;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("facts", { name: "Facts Game", maxDwellSeconds: { created: 30 * MINUTE, paid: 5 * MINUTE }, refundApprovalAmount: 1_00 }));
});

async function paidAt(minutesAgo: number) {
  const order = await createOrder(getPool(), { tenantId: "facts", amount: 30_00, createdAt: new Date(Date.now() - minutesAgo * 60_000) });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: 30_00, actor: "channel:alipay", source: "callback" });
  // Paid when it was created: the time in state counts from then.
  await getPool().query(`UPDATE orders SET state_at = created_at WHERE id = $1`, [order.id]);
  return order;
}

describe("the order page's facts", () => {
  it("flags a stuck order by the same rule as the orders list, with how long and the limit", async () => {
    const stuck = await paidAt(90);
    const onTime = await paidAt(1);

    const facts = await getOrderPageFacts("facts", stuck.orderNo);
    expect(facts).toMatchObject({ tenantName: "Facts Game", thresholds: { created: 1800, paid: 300 }, cannedReasons: {} });
    const dwell = dwellOf("paid", facts!.secondsInState, facts!.thresholds);
    expect(dwell).toMatchObject({ maxDwellSeconds: 300, stuck: true });
    expect(dwell.secondsInState).toBeGreaterThanOrEqual(89 * 60);

    const fresh = await getOrderPageFacts("facts", onTime.orderNo);
    expect(dwellOf("paid", fresh!.secondsInState, fresh!.thresholds).stuck).toBe(false);

    // The list's stuck filter finds exactly the one the page flags.
    const listed = await searchOrders({ scope: ["facts"], stuck: true });
    expect(listed.rows.map((r) => [r.orderNo, r.stuck, r.maxDwellSeconds])).toEqual([[stuck.orderNo, true, 300]]);
  });

  it("is null for an order that does not exist", async () => {
    expect(await getOrderPageFacts("facts", "nope")).toBeNull();
  });

  it("tells the approval card about the refunds of its order refused before", async () => {
    const order = await paidAt(1);
    const first = await requestRefundApproval({ tenantId: "facts", orderId: order.id, requestedBy: "staff:agent@example.com", reason: "player asked", requestKey: randomUUID() });
    await decideRefundApproval({ id: first.id, approve: false, decidedBy: "staff:manager@example.com", reason: "items already used" });
    const second = await requestRefundApproval({ tenantId: "facts", orderId: order.id, requestedBy: "staff:agent2@example.com", reason: "player asked again", requestKey: randomUUID() });
    const other = await paidAt(1);
    const unrelated = await requestRefundApproval({ tenantId: "facts", orderId: other.id, requestedBy: "staff:agent@example.com", reason: "first time", requestKey: randomUUID() });

    const refused = await refusedRefundsByApproval([second.id, unrelated.id]);

    expect(refused.get(second.id)).toEqual([
      expect.objectContaining({ kind: "approval-rejected", approvalId: first.id, by: "staff:manager@example.com", reason: "items already used", requestedBy: "staff:agent@example.com" }),
    ]);
    expect(refused.has(unrelated.id)).toBe(false);
  });
});
