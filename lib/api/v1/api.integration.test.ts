import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getOrder } from "@/app/api/v1/orders/[orderNo]/route";
import { POST as postEvent } from "@/app/api/v1/orders/[orderNo]/events/route";
import { POST as postGrant } from "@/app/api/v1/orders/[orderNo]/grants/route";
import { POST as postOrder } from "@/app/api/v1/orders/route";
import { createApiKey, revokeApiKey } from "@/lib/api/keys";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";

// The integration API contract (issue 6), through the real route handlers on a real database.

useFreshDatabase();

let key = "";
let otherKey = "";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("api"));
  await ensureTenant(getPool(), tenantSpec("api-other"));
  key = (await createApiKey({ tenantId: "api", name: "channel", actor: "test" })).key;
  otherKey = (await createApiKey({ tenantId: "api-other", name: "channel", actor: "test" })).key;
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, opts: { body?: unknown; raw?: string; key?: string | null; orderNo?: string; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? key}`;
  const hasBody = opts.body !== undefined || opts.raw !== undefined;
  if (hasBody) headers["content-type"] = opts.type ?? "application/json";
  const request = new NextRequest("http://localhost/api/v1/x", {
    method: hasBody ? "POST" : "GET",
    headers,
    ...(hasBody ? { body: opts.raw ?? JSON.stringify(opts.body) } : {}),
  });
  const response = await handler(request, { params: Promise.resolve({ orderNo: opts.orderNo ?? "" }) });
  // The assertions below read deep into the JSON; `any` keeps them short and they check every value.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const newOrder = (orderNo: string, amount = 128_00) => ({
  orderNo,
  playerId: "player-1",
  currency: "CNY",
  amount,
  lines: [
    { sku: "gems-6480", kind: "currency", quantity: 6480 },
    { sku: "skin-dragon", kind: "cosmetic", quantity: 1 },
  ],
});

describe("POST /api/v1/orders", () => {
  it("201 on create, 200 with the same order for an identical body, 409 for a different body", async () => {
    const created = await call(postOrder, { body: newOrder("API-1") });
    const again = await call(postOrder, { body: newOrder("API-1") });
    const different = await call(postOrder, { body: newOrder("API-1", 6_00) });

    expect(created.status).toBe(201);
    expect(created.body.order).toMatchObject({
      orderNo: "API-1",
      state: "created",
      version: 0,
      amount: 128_00,
      currency: "CNY",
      playerId: "player-1",
      lines: [
        { sku: "gems-6480", kind: "currency", quantity: 6480, granted: 0, pending: 6480 },
        { sku: "skin-dragon", kind: "cosmetic", quantity: 1, granted: 0, pending: 1 },
      ],
      transitions: [],
    });
    expect(again).toEqual({ status: 200, body: { order: created.body.order } });
    expect(different.status).toBe(409);
    expect(different.body.error).toEqual({ code: "conflict", message: "Order API-1 already exists with a different amount." });
    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM orders WHERE order_no = 'API-1'`);
    expect(rows[0].n).toBe(1);
  });

  it("400 names the invalid fields; 415 for a non-JSON body; 413 over the size limit; 401 without a key", async () => {
    const invalid = await call(postOrder, { body: { ...newOrder("API-2"), amount: 12.5, lines: [] } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("invalid-input");
    expect(Object.keys(invalid.body.error.fields).sort()).toEqual(["amount", "lines"]);

    expect((await call(postOrder, { raw: "orderNo=API-2", type: "application/x-www-form-urlencoded" })).status).toBe(415);
    expect((await call(postOrder, { raw: "{not json" })).body.error.code).toBe("invalid-input");
    const huge = await call(postOrder, { body: { ...newOrder("API-2"), padding: "x".repeat(70_000) } });
    expect(huge.status).toBe(413);
    expect((await call(postOrder, { body: newOrder("API-2"), key: null })).status).toBe(401);
    expect((await call(postOrder, { body: newOrder("API-2"), key: key.slice(0, -1) + (key.endsWith("A") ? "B" : "A") })).status).toBe(401);

    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM orders WHERE order_no = 'API-2'`);
    expect(rows[0].n).toBe(0);
  });
});

describe("GET /api/v1/orders/{orderNo}", () => {
  it("200 for the key's tenant; 404 for an unknown order and for another tenant's order", async () => {
    await call(postOrder, { body: newOrder("API-3") });
    expect((await call(getOrder, { orderNo: "API-3" })).status).toBe(200);
    expect((await call(getOrder, { orderNo: "NOPE" })).status).toBe(404);
    const foreign = await call(getOrder, { orderNo: "API-3", key: otherKey });
    expect(foreign).toEqual({ status: 404, body: { error: { code: "not-found", message: "No order API-3." } } });
  });
});

describe("POST /api/v1/orders/{orderNo}/events", () => {
  it("applied then duplicate (200); illegal and stale (409); rejected by the amount guard (422) with an exception filed", async () => {
    await call(postOrder, { body: newOrder("API-4") });
    const pay = { event: "pay", bizKey: "alipay-777", amount: 128_00 };

    const short = await call(postEvent, { orderNo: "API-4", body: { ...pay, bizKey: "alipay-776", amount: 12_80 } });
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ result: "rejected", guard: "amount-matches", error: { code: "rejected" }, order: { state: "created" } });

    const applied = await call(postEvent, { orderNo: "API-4", body: pay });
    const duplicate = await call(postEvent, { orderNo: "API-4", body: pay });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ result: "applied", order: { state: "paid", version: 1 } });
    expect(applied.body.order.transitions).toEqual([
      expect.objectContaining({ event: "pay", from: "created", to: "paid", bizKey: "alipay-777", source: "callback", actor: "apikey:api/channel" }),
    ]);
    expect(duplicate).toMatchObject({ status: 200, body: { result: "duplicate", order: { version: 1 } } });

    const illegal = await call(postEvent, { orderNo: "API-4", body: { event: "confirm-delivery", bizKey: "" } });
    expect(illegal.status).toBe(409);
    expect(illegal.body).toMatchObject({ result: "illegal", error: { code: "illegal" } });
    const stale = await call(postEvent, { orderNo: "API-4", body: { event: "begin-delivery", bizKey: "", expectedVersion: 0 } });
    expect(stale).toMatchObject({ status: 409, body: { result: "stale", order: { version: 1 } } });

    const { rows } = await getPool().query(
      `SELECT e.kind, e.biz_key, e.amount FROM order_exceptions e JOIN orders o ON o.id = e.order_id WHERE o.order_no = 'API-4'`,
    );
    expect(rows).toEqual([{ kind: "amount-mismatch", biz_key: "alipay-776", amount: 12_80 }]);
  });

  it("a payment for a closed order is illegal and files a payment-after-close exception for ops", async () => {
    await call(postOrder, { body: newOrder("API-5") });
    expect((await call(postEvent, { orderNo: "API-5", body: { event: "close", bizKey: "timeout" } })).body.result).toBe("applied");

    const late = await call(postEvent, { orderNo: "API-5", body: { event: "pay", bizKey: "wx-1", amount: 128_00 } });

    expect(late).toMatchObject({ status: 409, body: { result: "illegal", order: { state: "closed" } } });
    const { rows } = await getPool().query(
      `SELECT e.kind, e.biz_key, e.amount, e.status FROM order_exceptions e JOIN orders o ON o.id = e.order_id WHERE o.order_no = 'API-5'`,
    );
    expect(rows).toEqual([{ kind: "payment-after-close", biz_key: "wx-1", amount: 128_00, status: "open" }]);
  });

  it("answers with the order exactly as a GET after it shows it, for every outcome (no second read on the way)", async () => {
    await call(postOrder, { body: newOrder("API-7") });
    const event = (body: object) => call(postEvent, { orderNo: "API-7", body });
    const asRead = async () => (await call(getOrder, { orderNo: "API-7" })).body.order;
    const answers = [
      await event({ event: "pay", bizKey: "short", amount: 1 }), // rejected
      await event({ event: "pay", bizKey: "ali-1", amount: 128_00 }), // applied
      await event({ event: "pay", bizKey: "ali-1", amount: 128_00 }), // duplicate
      await event({ event: "begin-delivery", bizKey: "", expectedVersion: 0 }), // stale
      await event({ event: "confirm-delivery", bizKey: "" }), // illegal
    ];
    expect(answers.map((a) => a.body.result)).toEqual(["rejected", "applied", "duplicate", "stale", "illegal"]);
    const now = await asRead();
    for (const answer of answers.slice(1)) expect(answer.body.order).toEqual(now);
    await call(postGrant, { orderNo: "API-7", body: { sku: "gems-6480", quantity: 100, grantId: "g1" } });
    const requested = await event({ event: "request-refund", bizKey: "r1" });
    expect(requested.body.order).toEqual(await asRead());
    // confirm-refund writes ledger reversals: its answer shows them too.
    const confirmed = await event({ event: "confirm-refund", bizKey: "r1" });
    expect(confirmed.body).toMatchObject({ result: "applied", order: { state: "refunded" } });
    expect(confirmed.body.order).toEqual(await asRead());
  });

  it("404 for an unknown order and 400 for an unknown event", async () => {
    expect((await call(postEvent, { orderNo: "NOPE", body: { event: "pay", bizKey: "x", amount: 1 } })).status).toBe(404);
    expect((await call(postEvent, { orderNo: "API-4", body: { event: "ship", bizKey: "x" } })).status).toBe(400);
  });
});

describe("POST /api/v1/orders/{orderNo}/grants", () => {
  it("applied, duplicate, over-delivery (409), invalid-state (409), unknown sku (400), reserved grantId (400)", async () => {
    await call(postOrder, { body: newOrder("API-6") });
    const grant = (body: object) => call(postGrant, { orderNo: "API-6", body });

    expect((await grant({ sku: "skin-dragon", quantity: 1, grantId: "g1" })).body.result).toBe("invalid-state");
    await call(postEvent, { orderNo: "API-6", body: { event: "pay", bizKey: "t", amount: 128_00 } });

    const applied = await grant({ sku: "gems-6480", quantity: 6000, grantId: "g1" });
    expect(applied.status).toBe(200);
    expect(applied.body.order.lines[0]).toEqual({ sku: "gems-6480", kind: "currency", quantity: 6480, granted: 6000, pending: 480 });
    expect((await grant({ sku: "gems-6480", quantity: 6000, grantId: "g1" })).body.result).toBe("duplicate");
    const over = await grant({ sku: "gems-6480", quantity: 481, grantId: "g2" });
    expect(over.status).toBe(409);
    expect(over.body.error).toEqual({
      code: "over-delivery",
      message: "Line gems-6480 has 6480, 6000 already granted: 481 more would over-deliver (at most 480).",
    });
    expect(over.body.refusal).toEqual({ kind: "over-delivery", sku: "gems-6480", quantity: 6480, granted: 6000, requested: 481 });
    expect((await grant({ sku: "gems-9999", quantity: 1, grantId: "g3" })).status).toBe(400);
    expect((await grant({ sku: "gems-6480", quantity: 0, grantId: "g4" })).status).toBe(400);
    expect((await grant({ sku: "gems-6480", quantity: 1, grantId: "refund:r1" })).status).toBe(400);

    const { rows } = await getPool().query(
      `SELECT sum(quantity)::int AS total, count(*)::int AS n FROM grants g JOIN orders o ON o.id = g.order_id WHERE o.order_no = 'API-6'`,
    );
    expect(rows[0]).toEqual({ total: 6000, n: 1 });
  });
});

describe("API keys", () => {
  it("a revoked key is refused at once", async () => {
    const { key: doomed, summary } = await createApiKey({ tenantId: "api", name: "doomed", actor: "test" });
    expect((await call(getOrder, { orderNo: "API-3", key: doomed })).status).toBe(200);
    await revokeApiKey(summary, "test");
    expect((await call(getOrder, { orderNo: "API-3", key: doomed })).status).toBe(401);
  });

  it("stores only a hash of the secret", async () => {
    const { key: made, summary } = await createApiKey({ tenantId: "api", name: "hashed", actor: "test" });
    const { rows } = await getPool().query(`SELECT secret_hash FROM api_keys WHERE prefix = $1`, [summary.prefix]);
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(made).not.toContain(rows[0].secret_hash);
    expect(made.split("_")[2]).not.toBe(rows[0].secret_hash);
  });
});
