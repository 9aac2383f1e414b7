import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postRefundEvent } from "@/app/api/v1/refunds/[refundId]/events/route";
import { createApiKey } from "@/lib/api/keys";
import { openApiDocument } from "@/lib/api/v1/openapi";
import { paymentAfterClose } from "@/lib/cases/fixtures";
import { refundIdFor, resolveMoneyCase } from "@/lib/cases/resolve-money";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";

// POST /api/v1/refunds/{refundId}/events: the channel's answer, through the real route handler.

useFreshDatabase();

let key = "";
let otherKey = "";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("refund-api"));
  await ensureTenant(getPool(), tenantSpec("refund-api-other"));
  key = (await createApiKey({ tenantId: "refund-api", name: "alipay", actor: "test" })).key;
  otherKey = (await createApiKey({ tenantId: "refund-api-other", name: "alipay", actor: "test" })).key;
});

async function answer(refundId: string, body: unknown, withKey = key) {
  const request = new NextRequest("http://localhost/api/v1/refunds/x/events", {
    method: "POST",
    headers: { authorization: `Bearer ${withKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await postRefundEvent(request, { params: Promise.resolve({ refundId }) });
  // The assertions read deep into the JSON and check every value they read.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function requestedRefund(): Promise<{ refundId: string; caseId: number }> {
  const { caseId } = await paymentAfterClose("refund-api");
  const requestKey = randomUUID();
  await resolveMoneyCase({ caseId, actor: "staff:ops@example.com", role: "ops", offer: "refund", reason: "paid after the timeout", requestKey });
  return { refundId: refundIdFor(requestKey), caseId };
}

describe("POST /api/v1/refunds/{refundId}/events", () => {
  it("200 applied, 200 duplicate for the same answer, 409 for another answer; the case is resolved by the confirmation", async () => {
    const { refundId, caseId } = await requestedRefund();
    const confirmed = await answer(refundId, { event: "confirm", bizKey: "alipay-refund-1" });
    expect(confirmed).toMatchObject({ status: 200, body: { result: "applied", refund: { refundId, status: "confirmed", amount: 18_00, channelRef: "alipay-refund-1" } } });
    expect(await answer(refundId, { event: "confirm", bizKey: "alipay-refund-1" })).toMatchObject({ status: 200, body: { result: "duplicate" } });
    const illegal = await answer(refundId, { event: "fail", bizKey: "alipay-refund-2", reason: "account closed" });
    expect(illegal).toMatchObject({
      status: 409,
      body: {
        result: "illegal",
        error: { code: "illegal", message: `Refund ${refundId} is already confirmed: fail is not possible.` },
        refusal: { kind: "refund-settled", status: "confirmed", event: "fail" },
        refund: { status: "confirmed" },
      },
    });
    const { rows } = await getPool().query(`SELECT status, resolved_by FROM order_exceptions WHERE id = $1`, [caseId]);
    expect(rows[0]).toEqual({ status: "resolved", resolved_by: "system:cases" });
  });

  it("404 for an unknown refund and for another tenant's; 400 for an event that is not one", async () => {
    const { refundId } = await requestedRefund();
    expect(await answer("rf-nope", { event: "confirm", bizKey: "x" })).toMatchObject({
      status: 404,
      body: { error: { code: "not-found", message: "There is no refund rf-nope." } },
    });
    expect((await answer(refundId, { event: "confirm", bizKey: "x" }, otherKey)).status).toBe(404);
    expect((await answer(refundId, { event: "refund", bizKey: "x" })).status).toBe(400);
    expect((await answer(refundId, { event: "confirm", bizKey: "" })).status).toBe(400);
  });

  it("is in the OpenAPI document", () => {
    const doc = openApiDocument("http://localhost");
    expect(Object.keys(doc.paths)).toContain("/api/v1/refunds/{refundId}/events");
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["RefundEvent", "Refund"]));
  });
});
