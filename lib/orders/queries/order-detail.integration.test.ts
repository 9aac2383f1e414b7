import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { decideRefundApproval, requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { getPool } from "@/lib/db/pool";
import { grant } from "@/lib/orders/grant";
import { addNote } from "@/lib/orders/notes";
import { recordException } from "@/lib/orders/record-exception";
import { countByKind, mergeTimeline } from "@/lib/orders/timeline";
import { transit } from "@/lib/orders/transit";
import type { OrderSnapshot } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { getOrderDetail } from "./order-detail";

// The order page's one round trip feeds the timeline every kind of fact the order has, written by
// the real writers (transit, grant, approvals, notes, exceptions), and nothing of another order.

useFreshDatabase();

let order: OrderSnapshot;
const by = { actor: "staff:ops@example.com", source: "console" as const };

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("detail", { refundApprovalAmount: 1_00 }));
  order = await createOrder(pool, { tenantId: "detail", orderNo: "D-1", amount: 6_00, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] });
  const other = await createOrder(pool, { tenantId: "detail", orderNo: "D-2" });
  await transit({ orderId: order.id, event: "pay", bizKey: "wx-1", amount: 6_00, actor: "channel:wechat", source: "callback" });
  await grant({ orderId: order.id, sku: "gems-60", quantity: 10, grantId: "console:k1", ...by, reason: "lost in the outage" });
  const asked = await requestRefundApproval({ tenantId: "detail", orderId: order.id, requestedBy: "staff:agent@example.com", reason: "accidental purchase", requestKey: randomUUID() });
  await decideRefundApproval({ id: asked.id, approve: false, decidedBy: "staff:manager@example.com", reason: "items were used" });
  const first = await addNote({ order, author: "staff:agent@example.com", body: "Player called" });
  await addNote({ order, author: "staff:agent@example.com", body: "It was the skin", correctsId: first.note.id });
  await recordException({ tenantId: "detail", orderId: order.id, kind: "second-payment", event: "pay", bizKey: "wx-2", amount: 6_00, actor: "channel:wechat", detail: {} });
  await pool.query(`UPDATE order_exceptions SET status = 'resolved', resolved_at = now(), resolved_by = 'staff:ops@example.com' WHERE order_id = $1`, [order.id]);
  await addNote({ order: other, author: "staff:agent@example.com", body: "another order" });
});

describe("getOrderDetail", () => {
  it("reads every kind of fact of the order in one round trip, for the timeline", async () => {
    const detail = await getOrderDetail("detail", "D-1");
    if (!detail) throw new Error("order not found");
    expect(detail.exceptions).toEqual([]);
    expect(detail.allExceptions).toMatchObject([{ kind: "second-payment", actor: "channel:wechat", resolvedBy: "staff:ops@example.com" }]);
    expect(detail.notes.map((n) => n.body)).toEqual(["Player called", "It was the skin"]);
    expect(detail.approvals).toMatchObject([{ status: "rejected", requestedBy: "staff:agent@example.com", decidedBy: "staff:manager@example.com", amount: 6_00 }]);
    expect(detail.auditFacts.map((f) => f.action)).toEqual(["approval.requested", "approval.rejected"]);

    const timeline = mergeTimeline(detail);
    expect(countByKind(timeline)).toMatchObject({ transition: 1, grant: 1, approval: 2, exception: 2, note: 2, action: 0 });
    expect(timeline.find((e) => e.kind === "grant")).toMatchObject({ actor: "staff:ops@example.com", source: "console", reason: "lost in the outage", sku: "gems-60", quantity: 10 });
    expect(timeline.find((e) => e.kind === "approval" && e.step === "rejected")).toMatchObject({ actor: "staff:manager@example.com", reason: "items were used" });
    // pay and the grant each queued a webhook message; a note queues none.
    expect(timeline.filter((e) => e.kind === "outbox").map((e) => (e.kind === "outbox" ? e.topic : ""))).toEqual(["order.granted", "order.transitioned"]);
  });
});
