import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { requestRefundApproval, decideRefundApproval } from "@/lib/approvals/refund-approvals";
import { refusedRefundsByApproval } from "@/lib/approvals/refused-refunds";
import { takeBackFactsByApproval } from "@/lib/approvals/take-back-facts";
import { paymentAfterClose } from "@/lib/cases/fixtures";
import { honourOrderNo, resolveMoneyCase } from "@/lib/cases/resolve-money";
import { grant } from "@/lib/orders/grant";
import { paymentOf } from "@/lib/orders/payment";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";
import { searchOrders } from "@/lib/orders/queries/search-orders";
import { refundNeedsApprovalOf } from "@/lib/orders/refund-history";
import { getPool } from "@/lib/db/pool";
import { dwellOf } from "@/lib/orders/stuck";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { getOrderPageFacts } from "./order-page-facts";

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

  // Issue 29, item 16: the honoured order said "Payment channel: recorded by staff:…" and linked its
  // original order only as a raw fromOrderNo in a collapsed detail.
  it("names an honoured order's payment channel and the order its payment reached first", async () => {
    const { caseId, order } = await paymentAfterClose("facts");
    await resolveMoneyCase({ caseId, actor: "staff:ops@example.com", role: "ops", offer: "honour", reason: "player still wants the gems", requestKey: randomUUID() });
    const orderNo = honourOrderNo(order.orderNo, caseId);

    const facts = await getOrderPageFacts("facts", orderNo);
    expect(facts?.paymentOrigin).toEqual({ orderNo: order.orderNo, caseId, sentBy: "channel:alipay" });
    const detail = await getOrderDetail("facts", orderNo);
    expect(paymentOf(detail!.transitions, facts!.paymentOrigin)).toMatchObject({
      channel: "alipay",
      actor: "staff:ops@example.com",
      recordedByStaff: true,
      honours: { orderNo: order.orderNo, caseId },
    });
    // Any other order has none.
    expect((await getOrderPageFacts("facts", order.orderNo))?.paymentOrigin).toBeNull();
  });

  // Issue 29, item 12: said before Confirm, by the rule request-refund decides with.
  it("gives the product's approval amount, which the refund form checks the order against", async () => {
    const order = await paidAt(1);
    const facts = await getOrderPageFacts("facts", order.orderNo);
    expect(facts?.refundApprovalAmount).toBe(1_00);
    expect(refundNeedsApprovalOf(order.amount, facts!.refundApprovalAmount)).toBe(true);
  });

  // Issue 29, item 12: the approving manager saw no take-back preview.
  it("gives the approval card what a refund of its order would take back", async () => {
    const order = await paidAt(1);
    await transit({ orderId: order.id, event: "begin-delivery", bizKey: "d-1", actor: "game:server", source: "api" });
    await grant({ orderId: order.id, sku: "gems-60", quantity: 40, grantId: "g-1", actor: "game:server", source: "api" });
    const pending = await requestRefundApproval({ tenantId: "facts", orderId: order.id, requestedBy: "staff:agent@example.com", reason: "player asked", requestKey: randomUUID() });

    const byApproval = await takeBackFactsByApproval([pending.id]);
    expect(byApproval.get(pending.id)).toEqual({
      lines: [{ sku: "gems-60", kind: "currency", expected: 60, granted: 40, reversed: 0 }],
      rules: expect.objectContaining({ currency: "revoke", cosmetic: "write-off" }),
      revokeEndpointSet: false,
    });
    expect((await takeBackFactsByApproval([])).size).toBe(0);
  });
});
