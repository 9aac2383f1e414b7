import { randomUUID } from "node:crypto";
import path from "node:path";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api/keys";
import { startBatch } from "@/lib/bulk/batches";
import { getPool } from "@/lib/db/pool";
import { can, ROLES, type Permission } from "@/lib/auth/permissions";
import { ORDER_EVENTS } from "@/lib/orders/machine";
import { transit } from "@/lib/orders/transit";
import { requestRefund } from "@/lib/refunds/request-refund";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { appFiles, FUZZ_SEED, hostileBody, hostileQuery, hostileString, rowCounts } from "@/lib/test/fuzz";
import { signInAs } from "@/lib/test/session";

// Issue 11, item 8: every route handler in app/ (the integration API and the console's), called
// directly with a valid API key or a signed-in staff member holding the route's permission, and
// hostile path parameters, query strings and bodies. Every answer is 2xx or 4xx with the error
// shape — never 5xx, never a stack trace — and a 4xx writes nothing, except the exception a refused
// payment files by design (DESIGN.md: money that arrived is never dropped).

useFreshDatabase();

const HOME = "fuzz-home";
const OTHER = "fuzz-other";
/** Routes open to anonymous callers on purpose (next-auth's own). */
const PUBLIC_ROUTES = new Set(["app/api/auth/[...nextauth]/route.ts"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Runs per route and method: the ten routes take a few seconds. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

const home = { key: "", orderNo: "", batchId: "", refundId: "" };

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(HOME));
  await ensureTenant(getPool(), tenantSpec(OTHER));
  home.key = (await createApiKey({ tenantId: HOME, name: "fuzz", actor: "test" })).key;
  const order = await createOrder(getPool(), {
    tenantId: HOME,
    amount: 128_00,
    lines: [
      { sku: "gems-6480", kind: "currency", quantity: 6480 },
      { sku: "skin-dragon", kind: "cosmetic", quantity: 1 },
    ],
  });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: 128_00, actor: "channel", source: "callback" });
  home.orderNo = order.orderNo;
  home.batchId = randomUUID();
  await startBatch({ batchId: home.batchId, tenantId: HOME, orderNos: [order.orderNo], reason: "fuzz", actor: "test" });
  home.refundId = `rf-${randomUUID()}`;
  await requestRefund({
    tenantId: HOME,
    refundId: home.refundId,
    orderId: order.id,
    caseId: null,
    channel: "alipay",
    paymentTxn: `txn-${order.id}`,
    paymentAmount: 128_00,
    amount: 1_00,
    currency: "CNY",
    reason: "fuzz",
    requestedBy: "test",
  });
});

/** Valid bodies per route (mutated by the fuzzer), so many runs get past the schema into the domain. */
const BODIES: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  "app/api/v1/orders/route.ts": fc.record({
    orderNo: fc.uuid().map((u) => `F-${u.slice(0, 8)}`),
    playerId: fc.constant("p-1"),
    currency: fc.constant("CNY"),
    amount: fc.constantFrom(6_00, 128_00),
    lines: fc.constant([{ sku: "gems-60", kind: "currency", quantity: 60 }]),
  }),
  "app/api/v1/orders/[orderNo]/events/route.ts": fc.record({
    event: fc.constantFrom(...ORDER_EVENTS),
    bizKey: fc.uuid().map((u) => `txn-${u}`),
    amount: fc.constantFrom(128_00, 2 ** 31, 1),
    reason: fc.constant("callback"),
  }),
  "app/api/v1/refunds/[refundId]/events/route.ts": fc.record({
    event: fc.constantFrom("confirm", "fail"),
    bizKey: fc.uuid().map((u) => `receipt-${u}`),
    reason: fc.constant("channel answer"),
  }),
  // No store signed these: every one is refused (and audited), whatever the fuzzer makes of it.
  "app/api/v1/stores/apple/notifications/[tenant]/route.ts": fc.record({
    signedPayload: fc.constantFrom(
      "a.b.c",
      `${Buffer.from(JSON.stringify({ alg: "ES256", x5c: ["AAAA", "BBBB", "CCCC"] })).toString("base64url")}.${Buffer.from('{"signedDate":1}').toString("base64url")}.AAAA`,
      `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.e30.`,
    ),
  }),
  // No OIDC token from Google: every push is refused (and audited), whatever the fuzzer makes of its body.
  "app/api/v1/stores/google/notifications/[tenant]/route.ts": fc.record({
    message: fc.record({
      data: fc.constantFrom("", "bm90IGpzb24=", Buffer.from('{"packageName":"com.example.game","eventTimeMillis":"1"}').toString("base64")),
      messageId: fc.constantFrom("1", "", "x".repeat(200)),
    }),
    subscription: fc.constantFrom("projects/p/subscriptions/s"),
  }),
  "app/api/v1/orders/[orderNo]/grants/route.ts": fc.record({ sku: fc.constantFrom("gems-6480", "skin-dragon"), quantity: fc.constantFrom(1, 6480, 2 ** 40), grantId: fc.uuid() }),
};

/** Valid path parameters per dynamic segment name. */
const PARAMS: Readonly<Record<string, () => string>> = {
  orderNo: () => home.orderNo,
  tenant: () => HOME,
  batchId: () => home.batchId,
  refundId: () => home.refundId,
  // A player, a refund review, a staff account: whether one exists or not, the answer is 2xx or 4xx.
  playerId: () => "player-1",
  id: () => "1",
};

const segmentsOf = (relative: string) => [...relative.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);

type Handler = ((req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>) & { permission?: Permission; auth?: string };

const files = await appFiles();
const routes = files.filter((f) => path.basename(f) === "route.ts").map((f) => path.relative(process.cwd(), f)).filter((r) => !PUBLIC_ROUTES.has(r));

/** The staff member who may call a console route: the least role holding its permission. */
function signInFor(permission: Permission): void {
  const role = ROLES.find((r) => can(r, permission))!;
  signInAs(role, [HOME, OTHER], { email: `fuzz-${role}@example.com` });
}

describe(`every route handler under hostile input (seed ${FUZZ_SEED}; replay with FUZZ_SEED=${FUZZ_SEED})`, () => {
  it("finds the routes (the enumeration itself works)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
  });

  describe.each(routes)("%s", (relative) => {
    it("answers 2xx or 4xx, never 5xx; a 4xx writes nothing", async () => {
      const mod = (await import(/* @vite-ignore */ path.join(process.cwd(), relative))) as Record<string, unknown>;
      const methods = METHODS.filter((m) => m in mod);
      expect(methods.length).toBeGreaterThan(0);
      const segments = segmentsOf(relative);
      const param = (name: string) =>
        fc.oneof({ weight: 3, arbitrary: fc.constant(null).map(() => PARAMS[name]!()) }, { weight: 2, arbitrary: hostileString }, fc.constant(null).map(() => `${PARAMS[name]!()}\u0000`));
      const paramsArb = fc.record(Object.fromEntries(segments.map((s) => [s, param(s)]))) as fc.Arbitrary<Record<string, string>>;

      for (const method of methods) {
        const handler = mod[method] as Handler;
        const samples = BODIES[relative] ?? fc.constant({});
        // Mostly JSON: a wrong content type is refused before anything else is looked at.
        const json = fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
        const request = fc.record({ params: paramsArb, query: hostileQuery, body: hostileBody(samples), json });
        await fc.assert(
          fc.asyncProperty(request, async ({ params, query, body, json }) => {
            if (handler.permission) signInFor(handler.permission);
            const hasBody = method !== "GET";
            const req = new NextRequest(`http://localhost/fuzz${query ? `?${query}` : ""}`, {
              method,
              headers: {
                ...(handler.auth === "api-key" ? { authorization: `Bearer ${home.key}` } : {}),
                ...(hasBody ? { "content-type": json || body === "" ? "application/json" : "text/plain" } : {}),
              },
              ...(hasBody ? { body } : {}),
            });
            const before = await rowCounts();
            const response = await handler(req, { params: Promise.resolve(params) });
            const text = await response.text();
            const summary = `${method} ${response.status} ${text.slice(0, 300)}`;
            expect(response.status, summary).toBeLessThan(500);
            expect(text, summary).not.toMatch(/\n\s+at |Error: /);
            if (response.status < 400) return;
            const error = (JSON.parse(text) as { error: { code: string; message: string } }).error;
            expect(error, summary).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String) }));
            const after = await rowCounts();
            // A refused or impossible payment is filed for ops on purpose; nothing else moves.
            if (["rejected", "illegal"].includes(error.code)) after.order_exceptions = before.order_exceptions!;
            expect(after, summary).toEqual(before);
          }),
          { seed: FUZZ_SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
    });
  });
});
