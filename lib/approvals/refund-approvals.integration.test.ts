import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { decideRefundApproval, listPendingApprovals, refundNeedsApproval, requestRefundApproval } from "./refund-approvals";

useFreshDatabase();

beforeAll(() => ensureTenant(getPool(), tenantSpec("four-eyes", { refundApprovalAmount: 100_00 })));

async function paidOrder(amount: number) {
  const order = await createOrder(getPool(), { tenantId: "four-eyes", amount });
  await transit({ orderId: order.id, event: "pay", bizKey: `t-${order.id}`, amount, actor: "channel", source: "callback" });
  return order;
}

const countTransitions = async (orderId: number, event: string) =>
  (await getPool().query(`SELECT count(*)::int AS n FROM order_transitions WHERE order_id = $1 AND event = $2`, [orderId, event])).rows[0].n;

describe("refund approvals (four eyes)", () => {
  it("only refunds above the tenant's approval amount need one", async () => {
    expect(await refundNeedsApproval(await paidOrder(100_00))).toBe(false);
    expect(await refundNeedsApproval(await paidOrder(100_01))).toBe(true);
  });

  it("a request waits; the requester cannot decide it; another manager's approval applies it once, even when two approve at once", async () => {
    const order = await paidOrder(648_00);
    const key = randomUUID();
    const request = { tenantId: "four-eyes", orderId: order.id, requestedBy: "staff:agent@example.com", reason: "charged twice", requestKey: key };

    const first = await requestRefundApproval(request);
    expect(await requestRefundApproval(request)).toEqual({ result: "duplicate", id: first.id });
    expect(await requestRefundApproval({ ...request, requestKey: randomUUID() })).toEqual({ result: "already-pending", id: first.id });
    expect(await countTransitions(order.id, "request-refund")).toBe(0);
    expect((await listPendingApprovals(["four-eyes"])).map((a) => [a.orderNo, a.amount, a.requestedBy])).toContainEqual([
      order.orderNo,
      648_00,
      "staff:agent@example.com",
    ]);

    const decide = (decidedBy: string) => decideRefundApproval({ id: first.id, approve: true, decidedBy, reason: "verified with the channel" });
    await expect(decide("staff:agent@example.com")).rejects.toMatchObject({ code: "forbidden" });

    const results = await Promise.allSettled([decide("staff:manager@example.com"), decide("staff:manager2@example.com")]);

    const approved = results.filter((r) => r.status === "fulfilled" && r.value.result === "approved");
    expect(approved.length).toBeGreaterThanOrEqual(1);
    expect(await countTransitions(order.id, "request-refund")).toBe(1);
    const { rows } = await getPool().query(`SELECT status, decided_by FROM refund_approvals WHERE id = $1`, [first.id]);
    expect(rows[0].status).toBe("approved");
    expect(["staff:manager@example.com", "staff:manager2@example.com"]).toContain(rows[0].decided_by);
    const state = await getPool().query(`SELECT state FROM orders WHERE id = $1`, [order.id]);
    expect(state.rows[0].state).toBe("refunding");
    expect(await listPendingApprovals(["four-eyes"])).toEqual([]);
  });

  it("a rejection changes nothing on the order", async () => {
    const order = await paidOrder(300_00);
    const { id } = await requestRefundApproval({ tenantId: "four-eyes", orderId: order.id, requestedBy: "staff:a", reason: "asked", requestKey: randomUUID() });

    expect(await decideRefundApproval({ id, approve: false, decidedBy: "staff:b", reason: "not eligible" })).toEqual({ result: "rejected" });

    expect(await countTransitions(order.id, "request-refund")).toBe(0);
    await expect(decideRefundApproval({ id, approve: true, decidedBy: "staff:c", reason: "changed my mind" })).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("the database itself refuses a self-approval", async () => {
    const order = await paidOrder(200_00);
    const { id } = await requestRefundApproval({ tenantId: "four-eyes", orderId: order.id, requestedBy: "staff:a", reason: "asked", requestKey: randomUUID() });
    await expect(getPool().query(`UPDATE refund_approvals SET status = 'approved', decided_by = 'staff:a' WHERE id = $1`, [id])).rejects.toThrow(
      /refund_approvals_four_eyes_check/,
    );
  });

  it("approve and reject racing on 40 requests: each request ends in exactly one decision, and the order agrees with it", async () => {
    const requests = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const order = await paidOrder(500_00);
        const { id } = await requestRefundApproval({ tenantId: "four-eyes", orderId: order.id, requestedBy: "staff:a", reason: "asked", requestKey: randomUUID() });
        return { id, orderId: order.id };
      }),
    );

    const settled = await Promise.allSettled(
      requests.flatMap(({ id }) => [
        decideRefundApproval({ id, approve: true, decidedBy: "staff:approver", reason: "verified with the channel" }),
        decideRefundApproval({ id, approve: false, decidedBy: "staff:rejecter", reason: "not eligible here" }),
      ]),
    );

    const decided = settled.filter((s) => s.status === "fulfilled");
    const refused = settled.filter((s) => s.status === "rejected");
    expect(decided).toHaveLength(40);
    expect(refused.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(40).fill("conflict"));
    const { rows } = await getPool().query(
      `SELECT a.status, a.decided_by, o.state, (SELECT count(*)::int FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'request-refund') AS requests
       FROM refund_approvals a JOIN orders o ON o.id = a.order_id WHERE a.id = ANY($1::bigint[])`,
      [requests.map((r) => r.id)],
    );
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      if (row.status === "approved") expect(row).toEqual({ status: "approved", decided_by: "staff:approver", state: "refunding", requests: 1 });
      else expect(row).toEqual({ status: "rejected", decided_by: "staff:rejecter", state: "paid", requests: 0 });
    }
  });
});
