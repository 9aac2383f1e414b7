import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/approvals/route";
import { requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { ApprovalsModel } from "./approvals";

// The approvals page's read model through its route: pending requests of the caller's products
// only, oldest first, each with what a refund would take back, the refunds refused before, and
// whether it is the viewer's own request (which another manager must decide).

useFreshDatabase();

async function paidOrder(tenantId: string, orderNo: string): Promise<number> {
  const order = await createOrder(getPool(), { tenantId, orderNo, amount: 6_00, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${orderNo}`, amount: 6_00, actor: "channel:alipay", source: "callback" });
  return order.id;
}

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("ap-home", { refundApprovalAmount: 1_00 }));
  await ensureTenant(pool, tenantSpec("ap-other", { refundApprovalAmount: 1_00 }));
  const ask = async (tenantId: string, orderNo: string, requestedBy: string) =>
    requestRefundApproval({ tenantId, orderId: await paidOrder(tenantId, orderNo), requestedBy, reason: "player asked", requestKey: randomUUID() });
  await ask("ap-home", "AP-1", "staff:agent@example.com");
  await ask("ap-home", "AP-2", "staff:manager@example.com");
  await ask("ap-other", "AP-ELSEWHERE", "staff:agent@example.com");
});

async function approvals(): Promise<{ status: number; model: ApprovalsModel | null }> {
  const response = await GET(new NextRequest("http://localhost/api/console/approvals"), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<ApprovalsModel>(await response.text()) : null };
}

describe("GET /api/console/approvals", () => {
  it("lists the pending requests of the caller's products, oldest first, marking the viewer's own", async () => {
    signInAs("manager", ["ap-home"]);
    const { model } = await approvals();
    expect(model!.pending.map((a) => [a.orderNo, a.tenantId, a.requestedBy, a.own, a.state])).toEqual([
      ["AP-1", "ap-home", "staff:agent@example.com", false, "paid"],
      ["AP-2", "ap-home", "staff:manager@example.com", true, "paid"],
    ]);
    const [first] = model!.pending;
    expect(first!.amount).toBe(6_00);
    expect(first!.createdAt).toBeInstanceOf(Date);
    expect(first!.refused).toEqual([]);
    // Nothing granted yet: the preview names the line and takes nothing.
    expect(first!.takeBack!.lines.map((l) => [l.sku, l.held, l.units])).toEqual([["gems-60", 0, 0]]);
  });

  it("shows every product's requests to a manager of both", async () => {
    signInAs("manager", ["ap-home", "ap-other"]);
    expect((await approvals()).model!.pending.map((a) => a.orderNo)).toEqual(["AP-1", "AP-2", "AP-ELSEWHERE"]);
  });

  it("refuses ops, who do not decide approvals", async () => {
    signInAs("ops", ["ap-home"]);
    expect((await approvals()).status).toBe(403);
  });
});
