import { generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { rowCounts } from "@/lib/test/fuzz";
import {
  connectedGoogleTenant,
  googleOrderId,
  postGooglePush,
  pushBody,
  pushToken,
  testIssuer,
  type PushClaims,
  type TestIssuer,
  type TestPush,
} from "@/lib/test/google-play";
import { deliveredStoreOrder, orderLedger } from "@/lib/test/store-orders";
import { polledVoid } from "./model";
import { applyVoid } from "./receive-notification";

// Google Play real-time developer notifications end to end (issue 16): pushes as Pub/Sub posts them,
// each with an OIDC token minted by a test issuer (its key generated here, its JWKS on a local port),
// posted to the real route handler, on a real database.

useFreshDatabase();

const TENANT = "google-home";
const T0 = Date.UTC(2026, 11, 1, 12);
let google: TestIssuer;

beforeAll(async () => {
  google = await testIssuer();
  process.env.GOOGLE_PUSH_JWKS_URL = google.jwksUrl;
  process.env.GOOGLE_PUSH_ISSUERS = google.issuer;
  await connectedGoogleTenant(TENANT);
});
afterAll(() => google.close());

const send = async (p: TestPush, claims: PushClaims = {}, tenant = TENANT) => postGooglePush(tenant, pushBody(p), await pushToken(google, { tenant, ...claims }));
const googleOrder = (orderId: string) => deliveredStoreOrder(TENANT, orderId, { channel: "googleplay" });
/** One line of three gem packs: a partial refund of one pack leaves two. */
const packOrder = (orderId: string) => deliveredStoreOrder(TENANT, orderId, { channel: "googleplay", lines: [{ sku: "gems-pack", kind: "currency", quantity: 3 }] });
const refused = () => getPrisma().auditEvent.count({ where: { action: "store.notification-refused" } });

const REFUNDED = {
  state: "refunded",
  held: { "gems-60": 0, "skin-cat": 0 },
  takenBack: { revoke: -60, "write-off": -1 },
  refundTransitions: ["request-refund/store/store:googleplay", "confirm-refund/store/store:googleplay"],
  cases: [],
};
const DELIVERED = { state: "delivered", held: { "gems-60": 60, "skin-cat": 1 }, takenBack: {}, refundTransitions: [], cases: [] };

describe("Google Play pushes: voided purchases", () => {
  it("a full void takes the order its orderId paid through request-refund and confirm-refund as the store, and is stored with its audit fact", async () => {
    const orderId = googleOrderId();
    const order = await googleOrder(orderId);
    const res = await send({ messageId: "1001", eventTimeMillis: T0, voided: { orderId, purchaseToken: `pt-${orderId}` } });
    expect(res).toEqual({ status: 200, json: { result: "stored", outcome: "applied", notificationId: "1001" } });
    expect(await orderLedger(order.id)).toEqual(REFUNDED);

    const row = await getPrisma().storeNotification.findFirstOrThrow({ where: { tenantId: TENANT, notificationId: "1001" } });
    expect(row).toMatchObject({
      store: "googleplay",
      type: "VOIDED_PURCHASE",
      subtype: "FULL_REFUND",
      transactionId: orderId,
      originalTransactionId: `pt-${orderId}`,
      orderId: BigInt(order.id),
      outcome: "applied",
      detail: { source: "push", refundType: "full", voidedQuantity: null, applied: ["request-refund", "confirm-refund"] },
    });
    expect(row.signedAt.getTime()).toBe(T0);
    expect(await getPrisma().storePurchase.findFirstOrThrow({ where: { tenantId: TENANT, transactionId: orderId } })).toMatchObject({
      store: "googleplay",
      originalTransactionId: `pt-${orderId}`,
      orderId: BigInt(order.id),
    });
    const facts = await getPrisma().auditEvent.findMany({ where: { orderId: BigInt(order.id), action: "store.notification" } });
    expect(facts).toMatchObject([
      {
        actor: "store:googleplay",
        tenantId: TENANT,
        target: `googleplay:${orderId}`,
        detail: { type: "VOIDED_PURCHASE", subtype: "FULL_REFUND", outcome: "applied", notificationId: "1001", source: "push", eventTime: new Date(T0).toISOString() },
      },
    ]);
  });

  it("the same messageId again (Pub/Sub's redelivery) is 200 and changes nothing; so are 15 copies at once", async () => {
    const orderId = googleOrderId();
    const order = await googleOrder(orderId);
    const body = pushBody({ messageId: "2001", eventTimeMillis: T0, voided: { orderId } });
    const token = await pushToken(google, { tenant: TENANT });
    const answers = await Promise.all(Array.from({ length: 15 }, () => postGooglePush(TENANT, body, token)));
    expect(answers.map((a) => a.status)).toEqual(Array(15).fill(200));
    expect(answers.filter((a) => a.json.result === "stored")).toHaveLength(1);
    expect(answers.filter((a) => a.json.result === "duplicate")).toHaveLength(14);
    const before = await rowCounts();
    expect(await postGooglePush(TENANT, body, token)).toEqual({ status: 200, json: { result: "duplicate", outcome: "applied", notificationId: "2001" } });
    expect(await rowCounts()).toEqual(before);
    expect(await orderLedger(order.id)).toEqual(REFUNDED);
  });

  it("two pushes of one void (different messageIds) refund once: the second finds the order refunded", async () => {
    const orderId = googleOrderId();
    const order = await googleOrder(orderId);
    expect((await send({ eventTimeMillis: T0, voided: { orderId } })).json).toMatchObject({ outcome: "applied" });
    expect((await send({ eventTimeMillis: T0 + 1000, voided: { orderId } })).json).toMatchObject({ outcome: "unchanged" });
    expect(await orderLedger(order.id)).toEqual(REFUNDED);
  });

  it("pushes and polls of one void racing each other refund exactly once", async () => {
    const orderId = googleOrderId();
    const order = await googleOrder(orderId);
    const token = await pushToken(google, { tenant: TENANT });
    const polled = { orderId, purchaseToken: `token-${orderId}`, voidedTimeMillis: T0 };
    const settled = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => postGooglePush(TENANT, pushBody({ eventTimeMillis: T0, voided: { orderId } }), token)),
      ...Array.from({ length: 5 }, () => applyVoid(TENANT, polledVoid(polled), polled)),
    ]);
    expect(settled.every((r) => r.status === "fulfilled")).toBe(true);
    expect(await orderLedger(order.id)).toEqual(REFUNDED);
    const rows = await getPrisma().storeNotification.findMany({ where: { tenantId: TENANT, transactionId: orderId }, select: { outcome: true } });
    // Five pushes (five messageIds) and one polled void (four duplicates): one of them refunded.
    expect(rows.map((r) => r.outcome).sort()).toEqual(["applied", "unchanged", "unchanged", "unchanged", "unchanged", "unchanged"]);
  });

  it("a quantity-based partial void takes back its units once the poll says how many, leaving the order delivered; a later full void takes the rest", async () => {
    const orderId = googleOrderId();
    const order = await packOrder(orderId);
    // The push says "partial" but not how many: kept, nothing taken.
    const partial = await send({ messageId: "3001", eventTimeMillis: T0, voided: { orderId, refundType: 2 } });
    expect(partial.json).toMatchObject({ outcome: "recorded" });
    const row = await getPrisma().storeNotification.findFirstOrThrow({ where: { tenantId: TENANT, notificationId: "3001" } });
    expect(row).toMatchObject({ subtype: "QUANTITY_BASED_PARTIAL_REFUND", detail: { source: "push", refundType: "partial", voidedQuantity: null, awaiting: "voidedQuantity" } });
    expect(await orderLedger(order.id)).toEqual({ state: "delivered", held: { "gems-pack": 3 }, takenBack: {}, refundTransitions: [], cases: [] });

    // The poll says one unit: one pack taken back under the tenant's rule for currency; read again (overlapping polls), nothing more.
    const polled = { orderId, purchaseToken: `pt-${orderId}`, voidedTimeMillis: T0, voidedQuantity: 1 };
    expect(await applyVoid(TENANT, polledVoid(polled), polled)).toMatchObject({ result: "stored", outcome: "applied" });
    expect(await applyVoid(TENANT, polledVoid(polled), polled)).toMatchObject({ result: "duplicate" });
    expect(await orderLedger(order.id)).toEqual({ state: "delivered", held: { "gems-pack": 2 }, takenBack: { revoke: -1 }, refundTransitions: [], cases: [] });

    expect((await send({ eventTimeMillis: T0 + 60_000, voided: { orderId } })).json).toMatchObject({ outcome: "applied" });
    expect(await orderLedger(order.id)).toEqual({
      state: "refunded",
      held: { "gems-pack": 0 },
      takenBack: { revoke: -3 },
      refundTransitions: REFUNDED.refundTransitions,
      cases: [],
    });
  });

  it("a partial void whose units are everything the order holds is a full refund", async () => {
    const orderId = googleOrderId();
    const order = await packOrder(orderId);
    const polled = { orderId, purchaseToken: `pt-${orderId}`, voidedTimeMillis: T0, voidedQuantity: 3 };
    expect(await applyVoid(TENANT, polledVoid(polled), polled)).toMatchObject({ outcome: "applied" });
    expect(await orderLedger(order.id)).toMatchObject({ state: "refunded", held: { "gems-pack": 0 }, takenBack: { revoke: -3 }, refundTransitions: REFUNDED.refundTransitions });
  });

  it("one-time product, subscription and test notifications are stored and ignored; a void of an order this tenant never saw has no order", async () => {
    const order = await googleOrder(googleOrderId());
    for (const kind of ["oneTimeProductNotification", "subscriptionNotification", "testNotification"] as const) {
      expect((await send({ eventTimeMillis: T0, kind })).json).toMatchObject({ result: "stored", outcome: "ignored" });
    }
    expect((await send({ eventTimeMillis: T0, voided: { orderId: googleOrderId() } })).json).toMatchObject({ outcome: "no-order" });
    const types = await getPrisma().storeNotification.findMany({ where: { tenantId: TENANT, outcome: "ignored" }, select: { type: true }, orderBy: { id: "asc" } });
    expect(types.map((t) => t.type)).toEqual(["ONE_TIME_PRODUCT", "SUBSCRIPTION", "TEST"]);
    expect(await orderLedger(order.id)).toEqual(DELIVERED);
  });
});

describe("Google Play pushes: refused, recorded, nothing changed", () => {
  async function refusedWith(body: unknown, token: string | null, status: number, code: string, tenant = TENANT) {
    const before = await rowCounts();
    const audits = await refused();
    const res = await postGooglePush(tenant, body, token);
    expect(res).toEqual({ status, json: { error: { code, message: expect.any(String) } } });
    expect(await rowCounts()).toEqual(before);
    expect(await refused()).toBe(audits + 1);
    return (res.json.error as { message: string }).message;
  }

  it("no token, a token signed by another key, an expired one and one from another issuer are refused (401)", async () => {
    const orderId = googleOrderId();
    const order = await googleOrder(orderId);
    const body = pushBody({ eventTimeMillis: T0, voided: { orderId } });
    expect(await refusedWith(body, null, 401, "unauthenticated")).toMatch(/missing/);
    const { privateKey: impostor } = await generateKeyPair("RS256");
    expect(await refusedWith(body, await pushToken(google, { tenant: TENANT }, impostor), 401, "unauthenticated")).toMatch(/signature/);
    const hourAgo = Math.floor(Date.now() / 1000) - 7200;
    expect(await refusedWith(body, await pushToken(google, { tenant: TENANT, iat: hourAgo, exp: hourAgo + 3600 }), 401, "unauthenticated")).toMatch(/expired/);
    expect(await refusedWith(body, await pushToken(google, { tenant: TENANT, iss: "https://issuer.example.com" }), 401, "unauthenticated")).toMatch(/issuer/);
    await refusedWith(body, "not-a-jwt", 401, "unauthenticated");
    expect(await orderLedger(order.id)).toEqual(DELIVERED);

    const [fact] = await getPrisma().auditEvent.findMany({ where: { action: "store.notification-refused", tenantId: TENANT }, orderBy: { id: "asc" }, take: 1 });
    expect(fact).toMatchObject({ actor: "store:googleplay", target: `tenant:${TENANT}`, detail: { store: "googleplay", problem: { kind: "store-token-invalid", reason: "missing" } } });
  });

  it("a genuine token for another audience or service account, or with an unverified email, is forbidden (403); so is a push for another package", async () => {
    const orderId = googleOrderId();
    const order = await googleOrder(orderId);
    const body = pushBody({ eventTimeMillis: T0, voided: { orderId } });
    expect(await refusedWith(body, await pushToken(google, { tenant: TENANT, aud: "https://elsewhere.example.com/push" }), 403, "forbidden")).toMatch(/audience/);
    expect(await refusedWith(body, await pushToken(google, { tenant: TENANT, email: "someone@example.com" }), 403, "forbidden")).toMatch(/email/);
    expect(await refusedWith(body, await pushToken(google, { tenant: TENANT, email_verified: false }), 403, "forbidden")).toMatch(/email/);
    const other = pushBody({ eventTimeMillis: T0, voided: { orderId }, packageName: "com.other.app" });
    expect(await refusedWith(other, await pushToken(google, { tenant: TENANT }), 403, "forbidden")).toMatch(/com\.other\.app/);
    expect(await orderLedger(order.id)).toEqual(DELIVERED);
  });

  it("a tenant that has not connected Google Play refuses every push (403); data that is no notification is 400, recorded", async () => {
    await ensureTenant(getPool(), tenantSpec("google-unconnected"));
    await refusedWith(pushBody({ eventTimeMillis: T0, kind: "testNotification" }), await pushToken(google, { tenant: "google-unconnected" }), 403, "forbidden", "google-unconnected");
    const garbage = { ...pushBody({ eventTimeMillis: T0 }), message: { data: Buffer.from("not json").toString("base64"), messageId: "9" } };
    await refusedWith(garbage, await pushToken(google, { tenant: TENANT }), 400, "invalid-input");
  });

  it("a tenant that does not exist is 404 and writes nothing; a body that is no push is 400", async () => {
    const before = await rowCounts();
    const audits = await refused();
    expect((await postGooglePush("no-such-tenant", pushBody({ eventTimeMillis: T0 }), await pushToken(google, { tenant: "no-such-tenant" }))).status).toBe(404);
    expect((await postGooglePush(TENANT, { message: {} }, await pushToken(google, { tenant: TENANT }))).status).toBe(400);
    expect(await rowCounts()).toEqual(before);
    expect(await refused()).toBe(audits);
  });
});
