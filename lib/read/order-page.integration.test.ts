import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/orders/[tenant]/[orderNo]/page/route";
import { GET as pollVersion } from "@/app/api/console/orders/[tenant]/[orderNo]/route";
import { paymentAfterClose, type FiledCase } from "@/lib/cases/fixtures";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { transit } from "@/lib/orders/transit";
import type { OrderSnapshot } from "@/lib/orders/types";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import type { OrderPageModel } from "./order-page";

// The order page's one JSON route: what each role is offered is decided here, the whole page comes
// in one answer with its types intact, and nothing of an order outside the caller's scope is sent.

useFreshDatabase();

let paid: OrderSnapshot;
let filed: FiledCase;

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("read-home", { refundApprovalAmount: 1_00 }));
  await ensureTenant(pool, tenantSpec("read-other"));
  paid = await createOrder(pool, { tenantId: "read-home", orderNo: "R-PAID", amount: 6_00, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] });
  await transit({ orderId: paid.id, event: "pay", bizKey: "wx-read", amount: 6_00, actor: "channel:wechat", source: "callback" });
  filed = await paymentAfterClose("read-home");
  await getPrisma().staffUser.create({ data: { email: "worker@example.com", name: "Worker", passwordHash: "x", role: "ops", tenantIds: ["read-home"] } });
});

async function read(tenant: string, orderNo: string): Promise<{ status: number; text: string }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/orders/${tenant}/${orderNo}/page`), { params: Promise.resolve({ tenant, orderNo }) });
  return { status: response.status, text: await response.text() };
}

async function model(tenant: string, orderNo: string): Promise<OrderPageModel> {
  const { status, text } = await read(tenant, orderNo);
  expect(status, text).toBe(200);
  return superjson.parse<OrderPageModel>(text);
}

describe("GET /api/console/orders/{tenant}/{orderNo}/page", () => {
  it("gives an agent the order, its history and the agent's own choices, with dates as dates", async () => {
    signInAs("agent", ["read-home"]);
    const m = await model("read-home", "R-PAID");
    expect(m.order).toMatchObject({ orderNo: "R-PAID", state: "paid", version: 1 });
    expect(m.order.stateAt).toBeInstanceOf(Date);
    expect(m.createdAt).toBeInstanceOf(Date);
    expect(m.viewer).toEqual({ role: "agent", actor: "staff:agent@example.com", canApprove: false, canGrant: false });
    expect(m.canRepair).toBe(false);
    // A refund over the product's approval amount goes to a manager first: said before Confirm.
    expect(m.events).toContain("request-refund");
    expect(m.refundApproval).toEqual({ amount: 1_00 });
    expect(m.takeBack?.lines.map((l) => l.sku)).toEqual(["gems-60"]);
    expect(m.lines).toEqual([expect.objectContaining({ sku: "gems-60", expected: 60, granted: 0, pending: 60 })]);
    expect(m.timeline.some((e) => e.kind === "transition")).toBe(true);
    expect(m.cases).toEqual({ list: [], assignees: [], reasons: {} });
  });

  it("gives ops the grant and repair controls, and the case's assignees and reasons", async () => {
    signInAs("ops", ["read-home"]);
    const m = await model("read-home", "R-PAID");
    expect(m.viewer.canGrant).toBe(true);
    expect(m.canRepair).toBe(true);
    const withCase = await model("read-home", filed.order.orderNo);
    expect(withCase.cases.list.map((c) => c.id)).toEqual([filed.caseId]);
    expect(withCase.cases.assignees.map((a) => a.email)).toEqual(["worker@example.com"]);
    expect(Object.keys(withCase.cases.reasons)).toEqual(["read-home"]);
  });

  it("answers an order of another product exactly as a missing one, and sends nothing of it", async () => {
    const other = await createOrder(getPool(), { tenantId: "read-other", orderNo: "R-ELSEWHERE" });
    signInAs("manager", ["read-home"]);
    const elsewhere = await read("read-other", other.orderNo);
    const missing = await read("read-home", "R-NOWHERE");
    expect([elsewhere.status, missing.status]).toEqual([404, 404]);
    // Word for word the answer about an order that does not exist, and nothing else.
    expect(JSON.parse(elsewhere.text)).toEqual(JSON.parse(missing.text.replaceAll("R-NOWHERE", "R-ELSEWHERE")));
    expect(JSON.parse(elsewhere.text)).toEqual({ error: { code: "not-found", message: expect.any(String) } });
    // The attempt on another product's order is audited under the order's name, as every order route's.
    const denied = await getPool().query(`SELECT target FROM audit_events WHERE action = 'access.denied' ORDER BY id DESC LIMIT 1`);
    expect(denied.rows).toEqual([{ target: "order:read-other/R-ELSEWHERE" }]);
  });

  it("answers the live poll with the order's state and version only, and another product's order as missing", async () => {
    signInAs("agent", ["read-home"]);
    const poll = (tenant: string, orderNo: string) =>
      pollVersion(new NextRequest(`http://localhost/api/console/orders/${tenant}/${orderNo}`), { params: Promise.resolve({ tenant, orderNo }) });
    const answer = await poll("read-home", "R-PAID");
    expect(superjson.parse(await answer.text())).toEqual({ state: "paid", version: 1 });
    expect((await poll("read-other", "R-ELSEWHERE")).status).toBe(404);
    expect((await poll("read-home", "R-NOWHERE")).status).toBe(404);
  });

  it("refuses a caller with no session", async () => {
    signOut();
    expect((await read("read-home", "R-PAID")).status).toBe(401);
  });
});
