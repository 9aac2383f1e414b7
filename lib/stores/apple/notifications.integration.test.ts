import { randomUUID, X509Certificate } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { transit } from "@/lib/orders/transit";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { appleNotificationBody, signAsApple, testAppleChain, type TestAppleChain, type TestNotification } from "@/lib/test/apple-store";
import { useFreshDatabase } from "@/lib/test/database";
import { rowCounts } from "@/lib/test/fuzz";
import { connectedTenant, deliveredStoreOrder, orderLedger, postAppleNotification, refundedMoneyOf } from "@/lib/test/store-orders";
import { REFUSALS_RECORDED_PER_MINUTE } from "@/lib/stores/notifications";
import { receiveAppleNotification } from "./receive-notification";

// App Store Server Notifications V2 end to end (issue 16): notifications signed by a test App Store
// (root, intermediate and leaf generated here), posted to the real route handler, on a real database.

useFreshDatabase();

const TENANT = "apple-home";
const T0 = Date.UTC(2026, 11, 1, 12);
let apple: TestAppleChain;
let impostor: TestAppleChain;

beforeAll(async () => {
  [apple, impostor] = await Promise.all([testAppleChain(), testAppleChain({ name: "Impostor" })]);
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  await connectedTenant(TENANT);
});

const txn = () => `2000000${Math.floor(Math.random() * 1e9)}`;
const send = async (n: TestNotification, chain = apple, tenant = TENANT) => postAppleNotification(tenant, await appleNotificationBody(chain, n));
const notifications = (tenantId = TENANT) => getPrisma().storeNotification.findMany({ where: { tenantId }, orderBy: { id: "asc" } });
const refused = () => getPrisma().auditEvent.count({ where: { action: "store.notification-refused" } });

const REFUNDED = {
  state: "refunded",
  // The confirm-refund guard takes the goods back per line under the tenant's rules (the defaults
  // here): currency revoked, the cosmetic written off.
  held: { "gems-60": 0, "skin-cat": 0 },
  takenBack: { revoke: -60, "write-off": -1 },
  refundTransitions: ["request-refund/store/store:appstore", "confirm-refund/store/store:appstore"],
  cases: [],
};
const DELIVERED = { state: "delivered", held: { "gems-60": 60, "skin-cat": 1 }, takenBack: {}, refundTransitions: [], cases: [] };

describe("App Store notifications: refunds", () => {
  it("a REFUND takes a delivered store order through request-refund and confirm-refund as the store, reversing each line, and is stored", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    const uuid = randomUUID();
    const res = await send({ type: "REFUND", uuid, signedAt: T0, transactionId, originalTransactionId: `orig-${transactionId}` });
    expect(res).toEqual({ status: 200, json: { result: "stored", outcome: "applied", notificationUUID: uuid } });
    expect(await orderLedger(order.id)).toEqual(REFUNDED);

    const row = (await notifications()).find((n) => n.notificationId === uuid)!;
    expect(row).toMatchObject({ store: "appstore", type: "REFUND", environment: "Sandbox", transactionId, outcome: "applied", orderId: BigInt(order.id) });
    expect(row.signedAt.getTime()).toBe(T0);
    const purchase = await getPrisma().storePurchase.findFirstOrThrow({ where: { tenantId: TENANT, transactionId } });
    expect(purchase).toMatchObject({ store: "appstore", originalTransactionId: `orig-${transactionId}`, orderId: BigInt(order.id) });
    // The notification is an audit fact of the order, in its chain and its timeline.
    const facts = await getPrisma().auditEvent.findMany({ where: { orderId: BigInt(order.id), action: "store.notification" } });
    expect(facts).toMatchObject([
      { actor: "store:appstore", tenantId: TENANT, target: `appstore:${transactionId}`, detail: { type: "REFUND", outcome: "applied", notificationUUID: uuid, signedDate: new Date(T0).toISOString() } },
    ]);
  });

  it("the same notification again (Apple's retry) is 200 and changes nothing; so are 20 copies at once", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    const body = await appleNotificationBody(apple, { type: "REFUND", signedAt: T0, transactionId });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postAppleNotification(TENANT, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json.result === "stored")).toHaveLength(1);
    expect(answers.filter((a) => a.json.result === "duplicate")).toHaveLength(19);
    const before = await rowCounts();
    expect(await postAppleNotification(TENANT, body)).toMatchObject({ status: 200, json: { result: "duplicate", outcome: "applied" } });
    expect(await rowCounts()).toEqual(before);
    expect(await orderLedger(order.id)).toEqual(REFUNDED);
  });

  it("a late REFUND after the REFUND_REVERSED signed after it does not win: the order stays delivered", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    expect((await send({ type: "REFUND_REVERSED", signedAt: T0 + 60_000, transactionId })).json).toMatchObject({ outcome: "unchanged" });
    expect((await send({ type: "REFUND", signedAt: T0, transactionId })).json).toMatchObject({ outcome: "superseded" });
    expect(await orderLedger(order.id)).toEqual(DELIVERED);
  });

  it("a REFUND_REVERSED after the order was refunded takes it back to delivered and gives the goods back once, by the rule they were taken by", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    await send({ type: "REFUND", signedAt: T0, transactionId });
    expect((await send({ type: "REFUND_REVERSED", signedAt: T0 + 60_000, transactionId })).json).toMatchObject({ outcome: "applied" });
    // Apple sends another reversal notification of the same transaction: nothing more is given back.
    expect((await send({ type: "REFUND_REVERSED", signedAt: T0 + 120_000, transactionId })).json).toMatchObject({ outcome: "unchanged" });
    expect(await orderLedger(order.id)).toEqual({ ...DELIVERED, refundTransitions: [...REFUNDED.refundTransitions, "reverse-refund/store/store:appstore"] });
    const backs = await getPrisma().takeBack.findMany({ where: { orderId: BigInt(order.id) }, orderBy: { id: "asc" } });
    expect(backs.map((b) => [b.sku, b.units, b.rule, b.status])).toEqual([
      ["gems-60", -60, "revoke", "pending"],
      ["skin-cat", -1, "write-off", "recorded"],
      // The revoked gems are granted again through the tenant's grant endpoint; the write-off is undone in the ledger.
      ["gems-60", 60, "revoke", "pending"],
      ["skin-cat", 1, "write-off", "recorded"],
    ]);
    expect(new Set(backs.map((b) => b.grantId.split(":")[0]))).toEqual(new Set(["refund", "reinstate"]));
  });

  it("a prorated REFUND takes back that share of each line under the tenant's rules and leaves the order delivered; its reversal gives it back", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    await send({ type: "REFUND", signedAt: T0, transactionId, proratedMilliPercent: 50_000 });
    // Half of 60 gems; half of one cosmetic rounds to the whole one.
    expect(await orderLedger(order.id)).toEqual({ ...DELIVERED, held: { "gems-60": 30, "skin-cat": 0 }, takenBack: { revoke: -30, "write-off": -1 } });
    // Half of the ¥6.00 is refunded money (lib/orders/refund-money.ts), kept on the notification and its audit fact.
    const moneyFacts = async () =>
      (
        await getPool().query<{ type: string; amount: string | null; audited: string | null }>(
          `SELECT n.type, n.refunded_amount::text AS amount, a.detail ->> 'refundedAmount' AS audited
           FROM store_notifications n JOIN audit_events a ON a.order_id = n.order_id AND a.action = 'store.notification' AND a.detail ->> 'notificationUUID' = n.notification_id
           WHERE n.order_id = $1 ORDER BY n.signed_at`,
          [order.id],
        )
      ).rows;
    expect(await moneyFacts()).toEqual([{ type: "REFUND", amount: "300", audited: "300" }]);
    expect(await refundedMoneyOf(order.id)).toBe(3_00);
    await send({ type: "REFUND_REVERSED", signedAt: T0 + 60_000, transactionId });
    expect(await orderLedger(order.id)).toEqual(DELIVERED);
    // The reversal gives the money back as it gives the goods back.
    expect(await moneyFacts()).toEqual([
      { type: "REFUND", amount: "300", audited: "300" },
      { type: "REFUND_REVERSED", amount: "-300", audited: "-300" },
    ]);
    expect(await refundedMoneyOf(order.id)).toBe(0);
  });

  it("a REFUND_DECLINED rejects a refund under way back to the state before it; an older REFUND arriving later does not win", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    await transit({ orderId: order.id, event: "request-refund", bizKey: "ask-1", actor: "staff:agent@example.com", source: "console", reason: "player asked" });
    expect((await send({ type: "REFUND_DECLINED", signedAt: T0 + 60_000, transactionId })).json).toMatchObject({ outcome: "applied" });
    expect((await send({ type: "REFUND", signedAt: T0, transactionId })).json).toMatchObject({ outcome: "superseded" });
    const ledger = await orderLedger(order.id);
    expect(ledger).toMatchObject({ state: "delivered", held: DELIVERED.held, takenBack: {} });
    expect(ledger.refundTransitions).toEqual(["request-refund/console/staff:agent@example.com", "reject-refund/store/store:appstore"]);
  });

  it("a CONSUMPTION_REQUEST is recorded with its 12-hour deadline; other types are recorded and ignored; an unknown transaction has no order", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    const consumption = randomUUID();
    expect((await send({ type: "CONSUMPTION_REQUEST", uuid: consumption, signedAt: T0, transactionId })).json).toMatchObject({ outcome: "recorded" });
    expect((await send({ type: "TEST", signedAt: T0 })).json).toMatchObject({ outcome: "ignored" });
    expect((await send({ type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signedAt: T0, transactionId })).json).toMatchObject({ outcome: "ignored" });
    expect((await send({ type: "REFUND", signedAt: T0, transactionId: txn() })).json).toMatchObject({ outcome: "no-order" });
    const row = (await notifications()).find((n) => n.notificationId === consumption)!;
    expect(row.deadlineAt!.getTime()).toBe(T0 + 12 * 3_600_000);
    expect(row.detail).toEqual({ reason: "UNINTENDED_PURCHASE" });
    expect(await orderLedger(order.id)).toEqual(DELIVERED);
  });

  it("a notification about many subscribers (its app in summary, not data) is checked against the tenant's app the same way", async () => {
    const summary = (bundleId: string) =>
      signAsApple(apple, { notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY", notificationUUID: randomUUID(), signedDate: T0, summary: { bundleId, environment: "Sandbox", requestIdentifier: "r-1" } });
    expect(await postAppleNotification(TENANT, { signedPayload: await summary("com.example.game") })).toMatchObject({ status: 200, json: { outcome: "ignored" } });
    expect((await postAppleNotification(TENANT, { signedPayload: await summary("com.other.app") })).status).toBe(403);
  });
});

describe("App Store notifications: refused, recorded, nothing changed", () => {
  async function refusedWith(body: unknown, status: number, code: string, tenant = TENANT) {
    const before = await rowCounts();
    const audits = await refused();
    const res = await postAppleNotification(tenant, body);
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error: { code, message: expect.any(String) } });
    expect(await rowCounts()).toEqual(before);
    expect(await refused()).toBe(audits + 1);
    return res.json.error as { code: string; message: string };
  }

  it("a notification signed by another root, one with no signature, and one whose signed transaction is forged are refused (401)", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(TENANT, transactionId);
    const n = { type: "REFUND", signedAt: T0, transactionId };
    const wrong = await refusedWith(await appleNotificationBody(impostor, n), 401, "unauthenticated");
    expect(wrong.message).toMatch(/untrusted-root/);

    const genuine = await appleNotificationBody(apple, n);
    const [header, payload] = genuine.signedPayload.split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${payload}.`;
    await refusedWith({ signedPayload: none }, 401, "unauthenticated");
    await refusedWith({ signedPayload: `${header}.${payload}.AAAA` }, 401, "unauthenticated");

    // Apple's outer signature over an impostor's transaction: the inner one is verified too.
    const outer = JSON.parse(Buffer.from(payload!, "base64url").toString()) as { data: Record<string, unknown> };
    outer.data.signedTransactionInfo = await signAsApple(impostor, { transactionId, originalTransactionId: transactionId, bundleId: "com.example.game" });
    await refusedWith({ signedPayload: await signAsApple(apple, outer) }, 401, "unauthenticated");
    expect(await orderLedger(order.id)).toEqual(DELIVERED);
  });

  it("a notification for another app or environment is refused (403), and so is everything for a tenant not connected", async () => {
    const transactionId = txn();
    await deliveredStoreOrder(TENANT, transactionId);
    const other = await refusedWith(await appleNotificationBody(apple, { type: "REFUND", signedAt: T0, transactionId, bundleId: "com.other.app" }), 403, "forbidden");
    expect(other.message).toMatch(/com\.other\.app/);
    await refusedWith(await appleNotificationBody(apple, { type: "REFUND", signedAt: T0, transactionId, environment: "Production" }), 403, "forbidden");
    await ensureTenant(getPool(), tenantSpec("apple-unconnected"));
    await refusedWith(await appleNotificationBody(apple, { type: "TEST", signedAt: T0 }), 403, "forbidden", "apple-unconnected");
  });

  it("records at most 20 refusals per tenant and minute, however many arrive at once (the URL is public: a refusal must not be a free way to grow the audit log)", async () => {
    await connectedTenant("apple-flood");
    const facts = () => getPrisma().auditEvent.count({ where: { action: "store.notification-refused", tenantId: "apple-flood" } });
    const before = await facts();
    const body = await appleNotificationBody(impostor, { type: "TEST", signedAt: T0 });
    const now = new Date(Date.UTC(2026, 11, 3, 12, 0, 5));
    // Counted in the database (lib/db/rate-window.ts), so this holds whichever web process each one reaches.
    const answers = await Promise.allSettled(
      Array.from({ length: 30 }, () => receiveAppleNotification({ tenantId: "apple-flood", signedPayload: body.signedPayload, roots: [new X509Certificate(apple.rootPem)], now })),
    );
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value.result : a.reason))).toEqual(Array.from({ length: 30 }, () => "refused"));
    expect(await facts()).toBe(before + REFUSALS_RECORDED_PER_MINUTE);
  });

  it("a tenant that does not exist is 404 and writes nothing; a body without signedPayload is 400", async () => {
    const before = await rowCounts();
    const audits = await refused();
    expect((await postAppleNotification("no-such-tenant", await appleNotificationBody(apple, { type: "TEST", signedAt: T0 }))).status).toBe(404);
    expect((await postAppleNotification(TENANT, {})).status).toBe(400);
    expect(await rowCounts()).toEqual(before);
    expect(await refused()).toBe(audits);
  });
});
