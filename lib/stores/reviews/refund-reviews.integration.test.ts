import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRefundReviewAnswer } from "@/app/(console)/refund-reviews/actions/send-review-answer";
import { updateRefundReviews } from "@/app/(console)/settings/actions/update-refund-reviews";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { runRefundReviews } from "@/lib/jobs/refund-reviews";
import { startReceiver, type Receiver } from "@/lib/jobs/test-receiver";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { appleNotificationBody, testAppleChain, type TestAppleChain, type TestNotification } from "@/lib/test/apple-store";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import { connectedTenant, deliveredStoreOrder, postAppleNotification } from "@/lib/test/store-orders";
import { listRefundReviews } from "./list-reviews";
import { PAST_DEADLINE } from "./model";
import { sendReviewAnswer } from "./send-answer";

// Refund reviews end to end (issue 16, item 5): Apple's CONSUMPTION_REQUEST, signed by a test App
// Store and posted to the real route, becomes one row of the deadline queue; its answer is prefilled
// from the ledger, sent through the outbox and relayed to a local stand-in for Apple's API.

useFreshDatabase();

const HOUR = 3_600_000;
const HOME = "reviews-home";
const OPTED_IN = "reviews-auto";
const ELSEWHERE = "reviews-elsewhere";
const TOKEN = "7e3fb20b-4cdb-47cc-936d-99d65f608138";
let apple: TestAppleChain;
let fakeApple: Receiver;

beforeAll(async () => {
  apple = await testAppleChain();
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  fakeApple = await startReceiver(() => 202);
  process.env.APPLE_STORE_API_URL = fakeApple.url;
  await Promise.all([connectedTenant(HOME), connectedTenant(OPTED_IN), connectedTenant(ELSEWHERE)]);
  const [settings] = await listTenantSettings([OPTED_IN]);
  await updateTenantSettings(OPTED_IN, settings!.updatedAt, { field: "refund_review_auto_send", value: true }, "staff:manager@example.com");
});

afterAll(() => fakeApple.close());

const txn = () => `2000000${Math.floor(Math.random() * 1e9)}`;
const send = async (n: TestNotification, tenant = HOME) => postAppleNotification(tenant, await appleNotificationBody(apple, n));
const consumption = (transactionId: string, signedAt: number, uuid = randomUUID()) => ({ type: "CONSUMPTION_REQUEST", uuid, signedAt, transactionId, appAccountToken: TOKEN });
const reviewOf = (requestId: string) => getPrisma().refundReview.findFirstOrThrow({ where: { requestId } });
const outboxFor = (tenantId: string) => getPrisma().outboxMessage.findMany({ where: { tenantId, topic: "store.refund-review-answer" } });
const factsOf = (action: string, reviewId: bigint) =>
  getPrisma().auditEvent.findMany({ where: { action, detail: { path: ["reviewId"], equals: Number(reviewId) } }, orderBy: { id: "asc" } });

/** A paid order of `playerId` in US dollars, created `daysAgo`; `granted` of its 60 gems delivered. */
async function usdOrder(tenantId: string, playerId: string, o: { amount: number; daysAgo: number; transactionId: string; granted: number }) {
  const order = await createOrder(getPool(), {
    tenantId,
    playerId,
    amount: o.amount,
    currency: "USD",
    createdAt: new Date(Date.now() - o.daysAgo * 24 * HOUR),
    lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }],
  });
  const step = async (r: Promise<{ result: string }>) => expect((await r).result).toBe("applied");
  await step(transit({ orderId: order.id, event: "pay", bizKey: o.transactionId, amount: o.amount, actor: "appstore", source: "callback" }));
  await step(transit({ orderId: order.id, event: "begin-delivery", bizKey: "", actor: "game", source: "api" }));
  if (o.granted > 0) await step(grant({ orderId: order.id, sku: "gems-60", quantity: o.granted, grantId: `g-${o.transactionId}`, actor: "game", source: "api" }));
  return order;
}

describe("a consumption request joins the deadline queue", () => {
  it("creates exactly one review, with its 12-hour deadline, however often (and however concurrently) Apple sends it", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(HOME, transactionId);
    const signedAt = Date.now() - HOUR;
    const request = consumption(transactionId, signedAt);
    expect((await send(request)).json).toMatchObject({ result: "stored", outcome: "recorded" });
    expect((await send(request)).json).toMatchObject({ result: "duplicate" });
    const copies = await Promise.all(Array.from({ length: 10 }, () => send(request)));
    expect(copies.every((c) => c.status === 200)).toBe(true);

    const reviews = await getPrisma().refundReview.findMany({ where: { requestId: request.uuid } });
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ tenantId: HOME, store: "appstore", transactionId, orderId: BigInt(order.id), reason: "UNINTENDED_PURCHASE", accountToken: TOKEN, status: "open" });
    expect(reviews[0]!.deadlineAt.getTime()).toBe(signedAt + 12 * HOUR);
  });
});

describe("the answer, prefilled from the ledger, sent through the outbox", () => {
  it("says what the ledger holds: a short delivery, the player's lifetime in dollars and refunds, their tenure, the account token", async () => {
    const player = `p-${randomUUID().slice(0, 8)}`;
    await usdOrder(HOME, player, { amount: 60_00, daysAgo: 100, transactionId: txn(), granted: 60 });
    const refunded = await usdOrder(HOME, player, { amount: 20_00, daysAgo: 50, transactionId: txn(), granted: 0 });
    expect((await transit({ orderId: refunded.id, event: "request-refund", bizKey: "rf-1", actor: "channel", source: "callback" })).result).toBe("applied");
    expect((await transit({ orderId: refunded.id, event: "confirm-refund", bizKey: "rf-1", actor: "channel", source: "callback" })).result).toBe("applied");
    const transactionId = txn();
    await usdOrder(HOME, player, { amount: 6_00, daysAgo: 0, transactionId, granted: 30 });
    const request = consumption(transactionId, Date.now() - HOUR);
    await send(request);
    const review = await reviewOf(request.uuid);

    const sent = await sendReviewAnswer({ reviewId: Number(review.id), actor: "staff:agent@example.com", customerConsented: true });
    expect(sent).toMatchObject({ result: "queued", url: `${fakeApple.url}/inApps/v1/transactions/consumption/${transactionId}` });
    if (sent.result !== "queued") throw new Error(sent.result);
    expect(sent.answer).toEqual({
      customerConsented: true,
      consumptionStatus: 0,
      platform: 1,
      sampleContentProvided: false,
      // 30 of 60 gems granted: not delivered, so we prefer the refund be granted.
      deliveryStatus: 5,
      appAccountToken: TOKEN,
      // First order 100 days before the request.
      accountTenure: 5,
      playTime: 0,
      // $20 refunded; $86 paid over three orders.
      lifetimeDollarsRefunded: 2,
      lifetimeDollarsPurchased: 3,
      userStatus: 0,
      refundPreference: 1,
    });
  });

  it("sending writes one outbox message and one audit fact with exactly what was sent; a second send sends nothing; the relay delivers it to the store", async () => {
    const transactionId = txn();
    const order = await deliveredStoreOrder(HOME, transactionId);
    const request = consumption(transactionId, Date.now() - HOUR);
    await send(request);
    const review = await reviewOf(request.uuid);
    const before = (await outboxFor(HOME)).length;

    signInAs("agent", [HOME]);
    const first = await sendRefundReviewAnswer({ reviewId: Number(review.id), customerConsented: true, refundPreference: 2 });
    const again = await sendRefundReviewAnswer({ reviewId: Number(review.id), customerConsented: true, refundPreference: 2 });
    signOut();
    expect(first).toMatchObject({ ok: true, data: { result: "queued" } });
    expect(again).toEqual({ ok: true, data: { result: "answered", status: "sending" } });
    if (!first.ok || first.data.result !== "queued") throw new Error("not queued");
    // Delivered in full and the player's money is in CNY (no dollar bucket without a rate): undeclared.
    expect(first.data.answer).toMatchObject({ deliveryStatus: 0, lifetimeDollarsPurchased: 0, lifetimeDollarsRefunded: 1, refundPreference: 2, customerConsented: true });

    const messages = await outboxFor(HOME);
    expect(messages).toHaveLength(before + 1);
    const message = messages.at(-1)!;
    expect(message.orderId).toBe(BigInt(order.id));
    expect(message.payload).toEqual({ reviewId: Number(review.id), store: "appstore", url: first.data.url, body: first.data.answer, deadlineAt: review.deadlineAt.toISOString() });
    const answered = await factsOf("refund-review.answered", review.id);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ actor: "staff:agent@example.com", tenantId: HOME, orderId: BigInt(order.id), target: `appstore:${transactionId}` });
    expect(answered[0]!.detail).toMatchObject({ url: first.data.url, answer: first.data.answer, messageId: Number(message.id) });

    const received = fakeApple.requests.length;
    await relayOutbox();
    const put = fakeApple.requests.slice(received).filter((r) => r.path === `/inApps/v1/transactions/consumption/${transactionId}`);
    expect(put).toHaveLength(1);
    expect(JSON.parse(put[0]!.body)).toEqual(first.data.answer);
    expect(put[0]!.headers["content-type"]).toBe("application/json");
    expect(await reviewOf(request.uuid)).toMatchObject({ status: "sent", answeredBy: "staff:agent@example.com", lastError: null });
    expect(await factsOf("refund-review.sent", review.id)).toMatchObject([{ actor: "system:outbox-relay" }]);
  });

  it("nothing is sent without the player's consent", async () => {
    const transactionId = txn();
    await deliveredStoreOrder(HOME, transactionId);
    const request = consumption(transactionId, Date.now() - HOUR);
    await send(request);
    const review = await reviewOf(request.uuid);
    expect(await sendReviewAnswer({ reviewId: Number(review.id), actor: "staff:agent@example.com", customerConsented: false })).toEqual({ result: "consent-missing" });
    expect(await reviewOf(request.uuid)).toMatchObject({ status: "open", answer: null });
    expect(await factsOf("refund-review.answered", review.id)).toEqual([]);
  });
});

describe("never after the deadline", () => {
  it("an answer held in the outbox past the deadline is not sent, and its review expires", async () => {
    const transactionId = txn();
    await deliveredStoreOrder(HOME, transactionId);
    const request = consumption(transactionId, Date.now() - HOUR);
    await send(request);
    const review = await reviewOf(request.uuid);
    expect((await sendReviewAnswer({ reviewId: Number(review.id), actor: "staff:agent@example.com", customerConsented: true })).result).toBe("queued");

    const received = fakeApple.requests.length;
    await relayOutbox({ now: new Date(review.deadlineAt.getTime() + 1) });
    expect(fakeApple.requests.slice(received).filter((r) => r.path.endsWith(transactionId))).toEqual([]);
    expect(await reviewOf(request.uuid)).toMatchObject({ status: "expired", lastError: PAST_DEADLINE });
    expect(await factsOf("refund-review.expired", review.id)).toHaveLength(1);
  });

  it("an agent's answer after the deadline is refused and the review expires", async () => {
    const transactionId = txn();
    await deliveredStoreOrder(HOME, transactionId);
    const request = consumption(transactionId, Date.now() - 13 * HOUR);
    await send(request);
    const review = await reviewOf(request.uuid);
    const before = (await outboxFor(HOME)).length;
    expect(await sendReviewAnswer({ reviewId: Number(review.id), actor: "staff:agent@example.com", customerConsented: true })).toEqual({ result: "expired" });
    expect((await reviewOf(request.uuid)).status).toBe("expired");
    expect(await outboxFor(HOME)).toHaveLength(before);
  });
});

describe("automatic answers", () => {
  it("the worker answers, as the system, only opted-in tenants' open reviews within their last hour, and expires those past the deadline", async () => {
    const now = new Date();
    const open = async (tenant: string, hoursAgo: number) => {
      const transactionId = txn();
      await deliveredStoreOrder(tenant, transactionId);
      const request = consumption(transactionId, now.getTime() - hoursAgo * HOUR);
      await send(request, tenant);
      return request.uuid;
    };
    const due = await open(OPTED_IN, 11.5);
    const notYet = await open(OPTED_IN, 2);
    const late = await open(OPTED_IN, 12.5);
    const notOptedIn = await open(HOME, 11.5);

    expect(await runRefundReviews({ now })).toEqual({ expired: 1, answered: 1 });
    expect((await reviewOf(due)).status).toBe("sending");
    expect((await reviewOf(notYet)).status).toBe("open");
    expect((await reviewOf(late)).status).toBe("expired");
    expect((await reviewOf(notOptedIn)).status).toBe("open");
    const dueReview = await reviewOf(due);
    expect(dueReview.answeredBy).toBe("system:refund-reviews");
    expect(await factsOf("refund-review.answered", dueReview.id)).toMatchObject([{ actor: "system:refund-reviews", tenantId: OPTED_IN }]);
    expect(await factsOf("refund-review.expired", (await reviewOf(late)).id)).toMatchObject([{ actor: "system:refund-reviews" }]);
    expect(await outboxFor(OPTED_IN)).toHaveLength(1);

    // A second run (another worker, the next tick) answers nothing twice.
    expect(await runRefundReviews({ now })).toEqual({ expired: 0, answered: 0 });
    expect(await outboxFor(OPTED_IN)).toHaveLength(1);
  });
});

describe("tenant scope", () => {
  it("another tenant's staff neither see a review in their queue nor can send it; nothing is written", async () => {
    const transactionId = txn();
    await deliveredStoreOrder(HOME, transactionId);
    const request = consumption(transactionId, Date.now() - HOUR);
    await send(request);
    const review = await reviewOf(request.uuid);
    expect((await listRefundReviews([HOME])).map((r) => r.id)).toContain(Number(review.id));
    expect((await listRefundReviews([ELSEWHERE])).map((r) => r.id)).not.toContain(Number(review.id));

    const before = await getPrisma().outboxMessage.count();
    signInAs("manager", [ELSEWHERE]);
    expect(await sendRefundReviewAnswer({ reviewId: Number(review.id), customerConsented: true, refundPreference: 3 })).toMatchObject({ ok: false, error: { code: "not-found" } });
    signOut();
    expect(await getPrisma().outboxMessage.count()).toBe(before);
    expect(await reviewOf(request.uuid)).toMatchObject({ status: "open", answer: null });
    expect(await getPrisma().auditEvent.count({ where: { action: "access.denied", target: `refund-review:${review.id}` } })).toBe(1);
  });
});

describe("the opt-in", () => {
  it("is a tenant setting a manager saves from the settings page, audited with before and after", async () => {
    const [settings] = await listTenantSettings([ELSEWHERE]);
    expect(settings!.refundReviewAutoSend).toBe(false);
    signInAs("manager", [ELSEWHERE]);
    const saved = await updateRefundReviews({ tenant: ELSEWHERE, expectedUpdatedAt: settings!.updatedAt, autoSend: true });
    signOut();
    expect(saved).toMatchObject({ ok: true, data: { status: "saved", before: false, after: true } });
    expect((await listTenantSettings([ELSEWHERE]))[0]!.refundReviewAutoSend).toBe(true);
    const facts = await getPrisma().auditEvent.findMany({ where: { action: "settings.updated", target: `tenant:${ELSEWHERE}` } });
    expect(facts.map((f) => f.detail)).toContainEqual({ field: "refund_review_auto_send", before: false, after: true });
    expect(facts.at(-1)!.actor).toBe("staff:manager@example.com");
  });
});
