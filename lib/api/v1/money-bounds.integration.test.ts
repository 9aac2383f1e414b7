import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { POST as postEvent } from "@/app/api/v1/orders/[orderNo]/events/route";
import { POST as postOrder } from "@/app/api/v1/orders/route";
import { createApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { rows } from "@/lib/db/sql";
import { listPendingApprovals, requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { findOrder } from "@/lib/orders/queries/find-order";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";

// Issue 11, item 5: a channel that reports more than 2^31-1 fen for a 128.00 order made the
// amount-mismatch exception fail to insert (INTEGER out of range), so the callback answered 500 and
// money that arrived was on no screen. Money columns are BIGINT now and the API bounds the amount
// only by what it can hold exactly: the guard still sees every amount and files it.

useFreshDatabase();

const TENANT = "money";
let key = "";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
  key = (await createApiKey({ tenantId: TENANT, name: "channel", actor: "test" })).key;
});

async function call(handler: typeof postEvent, body: unknown, orderNo = "") {
  const request = new NextRequest("http://localhost/api/v1/x", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await handler(request, { params: Promise.resolve({ orderNo }) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the assertions check every value they read
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function placeOrder(): Promise<string> {
  const orderNo = `M-${randomUUID().slice(0, 8)}`;
  const placed = await call(postOrder, { orderNo, playerId: "p-1", currency: "CNY", amount: 128_00, lines: [{ sku: "gems-6480", kind: "currency", quantity: 6480 }] });
  expect(placed.status).toBe(201);
  return orderNo;
}

const exceptionRow = z.object({ kind: z.string(), bizKey: z.string(), amount: z.number().nullable() });
const exceptionsOf = (orderNo: string) =>
  rows(
    getPool(),
    exceptionRow,
    `SELECT e.kind, e.biz_key AS "bizKey", e.amount FROM order_exceptions e JOIN orders o ON o.id = e.order_id
     WHERE o.tenant_id = $1 AND o.order_no = $2 ORDER BY e.id`,
    [TENANT, orderNo],
  );

const counts = async () =>
  (await getPool().query<{ n: number }>(`SELECT (SELECT count(*) FROM order_transitions) + (SELECT count(*) FROM order_exceptions) + (SELECT count(*) FROM outbox_messages) AS n`)).rows[0]!.n;

describe("pay with an amount the order cannot match", () => {
  it.each([
    ["2^31", 2 ** 31],
    ["2^53-1", Number.MAX_SAFE_INTEGER],
  ])("%s on a 128.00 order: 422 rejected by the amount guard, the exception filed with the amount", async (_, amount) => {
    const orderNo = await placeOrder();
    const bizKey = `txn-${randomUUID()}`;

    const paid = await call(postEvent, { event: "pay", bizKey, amount }, orderNo);

    expect(paid.status).toBe(422);
    expect(paid.body.error.code).toBe("rejected");
    expect(paid.body.guard).toBe("amount-matches");
    expect(paid.body.order).toMatchObject({ state: "created", version: 0, amount: 128_00 });
    expect(await exceptionsOf(orderNo)).toEqual([{ kind: "amount-mismatch", bizKey, amount }]);
  });

  it("an amount beyond what the ledger holds exactly is a 400 naming the field, and nothing is written", async () => {
    const orderNo = await placeOrder();
    const before = await counts();

    for (const body of [
      { event: "pay", bizKey: "txn-big", amount: 2 ** 53 },
      { event: "pay", bizKey: "txn-big", amount: 1e300 },
      `{"event":"pay","bizKey":"txn-big","amount":1e400}`,
    ]) {
      const refused = await call(postEvent, body, orderNo);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe("invalid-input");
      expect(Object.keys(refused.body.error.fields)).toEqual(["amount"]);
    }
    expect(await counts()).toBe(before);
    expect(await exceptionsOf(orderNo)).toEqual([]);
  });
});

describe("money columns", () => {
  it("are BIGINT everywhere, and Prisma's bigints reach the app as numbers", async () => {
    const { rows: columns } = await getPool().query<{ column: string; type: string }>(
      `SELECT table_name || '.' || column_name AS column, data_type AS type FROM information_schema.columns
       WHERE table_schema = 'public' AND (column_name = 'amount' OR column_name LIKE '%\\_amount') ORDER BY 1`,
    );
    expect(columns).toEqual([
      { column: "order_exceptions.amount", type: "bigint" },
      { column: "orders.amount", type: "bigint" },
      { column: "payment_refunds.amount", type: "bigint" },
      { column: "payment_refunds.payment_amount", type: "bigint" },
      { column: "refund_approvals.amount", type: "bigint" },
      { column: "store_notifications.refunded_amount", type: "bigint" },
      { column: "tenant_settings.refund_approval_amount", type: "bigint" },
    ]);

    // An order (and so a refund request) above 2^31-1, read back through the Prisma call sites.
    const big = 2 ** 40;
    const orderNo = `M-${randomUUID().slice(0, 8)}`;
    const order = await getPrisma().order.create({
      data: { tenantId: TENANT, orderNo, playerId: "p", amount: big, currency: "CNY", state: "paid", stateAt: new Date() },
    });
    expect(await findOrder(TENANT, orderNo)).toMatchObject({ amount: big });
    await requestRefundApproval({ tenantId: TENANT, orderId: Number(order.id), requestedBy: "staff:a", reason: "r", requestKey: randomUUID() });
    expect((await listPendingApprovals([TENANT])).find((a) => a.orderNo === orderNo)).toMatchObject({ amount: big });
  });
});
