import { generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { sendRefundReviewAnswer } from "@/app/[locale]/(console)/refund-reviews/actions/send-review-answer";
import { updateRefundReviews } from "@/app/[locale]/(console)/settings/actions/update-refund-reviews";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { runRefundReviews } from "@/lib/jobs/refund-reviews";
import { startReceiver, type ReceivedRequest, type Receiver } from "@/lib/jobs/test-receiver";
import { one } from "@/lib/db/sql";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { signServerApiToken } from "@/lib/stores/apple/server-api-token";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { appleNotificationBody, testAppleChain, type TestAppleChain, type TestNotification } from "@/lib/test/apple-store";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import { BUNDLE_ID, connectedTenant, deliveredStoreOrder, postAppleNotification } from "@/lib/test/store-orders";
import { listRefundReviews } from "./list-reviews";
import { PAST_DEADLINE } from "./model";
import { reviewsNearDeadline } from "./near-deadline";
import { NEAR_DEADLINE_MS } from "./review-state";
import { sendReviewAnswer } from "./send-answer";

// Refund reviews end to end (issue 16, item 5): Apple's CONSUMPTION_REQUEST, signed by a test App
// Store and posted to the real route, becomes one row of the deadline queue; its answer is prefilled
// from the ledger, sent through the outbox and relayed to a local stand-in for Apple's API — which,
// like Apple's, takes a call only with a valid App Store Server API token for the tenant's key and app.

useFreshDatabase();

const HOUR = 3_600_000;
const HOME = "reviews-home";
const OPTED_IN = "reviews-auto";
const ELSEWHERE = "reviews-elsewhere";
/** Connected to the App Store, but no App Store Server API key configured for it. */
const NO_KEY = "reviews-no-key";
/** Configured with a key Apple does not know (revoked, or another team's). */
const UNKNOWN_KEY = "reviews-unknown-key";
/** Only for the overview's count of reviews near their deadline. */
const NEAR = "reviews-near";
const TOKEN = "7e3fb20b-4cdb-47cc-936d-99d65f608138";
let apple: TestAppleChain;
let fakeApple: Receiver;

function p256() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { pem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKey };
}
const ISSUER = "57246542-96fe-1a63-e053-0824d011072a";
const appKey = { ...p256(), keyId: "TESTKEY001" };
const strangerKey = { ...p256(), keyId: "TESTKEY999" };
/** The keys "Apple" knows, by key id: only the one App Store Connect issued. */
const appleKnows: ReadonlyMap<string, KeyObject> = new Map([[appKey.keyId, appKey.publicKey]]);

/**
 * Apple's check of a call's bearer token, as "Generating JSON Web Tokens for API requests" states
 * it: ES256 signed by a key it issued (the header's kid), the issuer's id, audience
 * appstoreconnect-v1, the tenant's bundle id, unexpired, living at most an hour, and nothing else.
 */
async function appleAccepts(request: ReceivedRequest): Promise<boolean> {
  const token = /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ""))?.[1];
  if (!token) return false;
  try {
    const key = appleKnows.get(String(decodeProtectedHeader(token).kid));
    if (!key) return false;
    const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ["ES256"], issuer: ISSUER, audience: "appstoreconnect-v1", typ: "JWT" });
    return (
      Object.keys(protectedHeader).sort().join() === "alg,kid,typ" &&
      Object.keys(payload).sort().join() === "aud,bid,exp,iat,iss" &&
      payload.bid === BUNDLE_ID &&
      payload.exp! - payload.iat! <= 3600
    );
  } catch {
    return false;
  }
}

beforeAll(async () => {
  apple = await testAppleChain();
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  fakeApple = await startReceiver(async (request) => ((await appleAccepts(request)) ? 202 : 401));
  process.env.APPLE_STORE_API_URL = fakeApple.url;
  const configured = { issuerId: ISSUER, keyId: appKey.keyId, privateKey: appKey.pem };
  process.env.APPLE_STORE_API_KEYS = JSON.stringify({
    [HOME]: configured,
    [OPTED_IN]: configured,
    [ELSEWHERE]: configured,
    [UNKNOWN_KEY]: { issuerId: ISSUER, keyId: strangerKey.keyId, privateKey: strangerKey.pem },
  });
  await Promise.all([HOME, OPTED_IN, ELSEWHERE, NO_KEY, UNKNOWN_KEY, NEAR].map((tenant) => connectedTenant(tenant)));
  const [settings] = await listTenantSettings([OPTED_IN]);
  await updateTenantSettings(OPTED_IN, settings!.updatedAt, { field: "refund_review_auto_send", value: true }, "staff:manager@example.com");
});

afterAll(() => fakeApple.close());

const txn = () => `2000000${Math.floor(Math.random() * 1e9)}`;
const send = async (n: TestNotification, tenant = HOME) => postAppleNotification(tenant, await appleNotificationBody(apple, n));
const consumption = (transactionId: string, signedAt: number, uuid = randomUUID()) => ({ type: "CONSUMPTION_REQUEST", uuid, signedAt, transactionId, appAccountToken: TOKEN });
const reviewOf = (requestId: string) => getPrisma().refundReview.findFirstOrThrow({ where: { requestId } });
const outboxFor = (tenantId: string) => getPrisma().outboxMessage.findMany({ where: { tenantId, topic: "store.refund-review-answer" }, orderBy: { id: "asc" } });
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
    // Signed with the tenant's key at send time; the stand-in verified it before taking the answer.
    expect(await appleAccepts(put[0]!)).toBe(true);
    const bearer = String(put[0]!.headers.authorization).slice("Bearer ".length);
    const stored = JSON.stringify([await outboxFor(HOME), await factsOf("refund-review.answered", review.id), await reviewOf(request.uuid)], (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    expect(stored).not.toContain(bearer.split(".")[2]);
    expect(stored).not.toContain("PRIVATE KEY");
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

describe("the App Store Server API token", () => {
  const put = (path: string, authorization?: string) =>
    fetch(`${fakeApple.url}${path}`, { method: "PUT", headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) }, body: "{}" });
  const bearer = async (key: { pem: string; keyId: string }, bundleId = BUNDLE_ID) =>
    `Bearer ${(await signServerApiToken({ issuerId: ISSUER, keyId: key.keyId, privateKey: key.pem }, bundleId, new Date())).token}`;

  it("the stand-in for Apple refuses a call without a token, or with one it cannot verify, as Apple does", async () => {
    const path = `/inApps/v1/transactions/consumption/${txn()}`;
    expect((await put(path)).status).toBe(401);
    expect((await put(path, "Bearer not-a-jwt")).status).toBe(401);
    expect((await put(path, await bearer(strangerKey))).status).toBe(401);
    // Apple's key id with a stranger's signature: the signature is checked, not just the kid.
    expect((await put(path, await bearer({ pem: strangerKey.pem, keyId: appKey.keyId }))).status).toBe(401);
    expect((await put(path, await bearer(appKey, "com.example.other"))).status).toBe(401);
    expect((await put(path, await bearer(appKey))).status).toBe(202);
  });

  const queuedAnswer = async (tenant: string) => {
    const transactionId = txn();
    await deliveredStoreOrder(tenant, transactionId);
    const request = consumption(transactionId, Date.now() - HOUR);
    await send(request, tenant);
    const review = await reviewOf(request.uuid);
    const sent = await sendReviewAnswer({ reviewId: Number(review.id), actor: "staff:agent@example.com", customerConsented: true });
    if (sent.result !== "queued") throw new Error(sent.result);
    return { transactionId, requestId: request.uuid, review, messageId: sent.messageId };
  };
  const messageOf = (id: number) =>
    one(
      getPool(),
      z.object({ status: z.string(), attempts: z.number(), lastError: z.string().nullable(), nextAttemptAt: z.coerce.date() }),
      `SELECT status, attempts, last_error AS "lastError", next_attempt_at AS "nextAttemptAt" FROM outbox_messages WHERE id = $1`,
      [id],
    );

  it("a tenant whose key Apple does not know is refused (401): the review shows it and the answer is tried again", async () => {
    const { transactionId, requestId, review, messageId } = await queuedAnswer(UNKNOWN_KEY);
    const received = fakeApple.requests.length;
    await relayOutbox({ random: () => 0 });
    expect(fakeApple.requests.slice(received).filter((r) => r.path.endsWith(transactionId))).toHaveLength(1);
    expect(await messageOf(messageId)).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 401: refused" });
    expect(await reviewOf(requestId)).toMatchObject({ status: "sending", lastError: "HTTP 401: refused" });
    expect((await listRefundReviews([UNKNOWN_KEY])).find((r) => r.id === Number(review.id))?.state).toMatchObject({
      status: "retrying",
      problem: { kind: "store-error", error: "HTTP 401: refused" },
    });
  });

  it("with no key configured nothing is sent: the first attempt settles the answer not sent, with the reason; once the key is set it is sent again and delivered", async () => {
    const { transactionId, requestId, review, messageId } = await queuedAnswer(NO_KEY);
    const reason = "App Store Server API key not configured for this tenant (APPLE_STORE_API_KEYS)";
    const received = fakeApple.requests.length;

    await relayOutbox({ random: () => 0 });
    // No retry can succeed until someone configures the key: the answer ends at once, not "sending" for hours.
    expect(await messageOf(messageId)).toMatchObject({ status: "dead", attempts: 1, lastError: reason });
    expect(await reviewOf(requestId)).toMatchObject({ status: "failed", lastError: reason });
    expect(await factsOf("refund-review.failed", review.id)).toMatchObject([{ actor: "system:outbox-relay", detail: { error: reason } }]);
    expect(fakeApple.requests.slice(received).filter((r) => r.path.endsWith(transactionId))).toEqual([]);
    // One status, as the list shows it: not sent, why, and that it may be sent again.
    const listed = (await listRefundReviews([NO_KEY])).find((r) => r.id === Number(review.id));
    expect(listed?.state).toMatchObject({ status: "not-sent", problem: { kind: "key-not-configured" }, awaiting: true, answerable: true });

    const keys = process.env.APPLE_STORE_API_KEYS!;
    process.env.APPLE_STORE_API_KEYS = JSON.stringify({ ...JSON.parse(keys), [NO_KEY]: { issuerId: ISSUER, keyId: appKey.keyId, privateKey: appKey.pem } });
    try {
      expect((await sendReviewAnswer({ reviewId: Number(review.id), actor: "staff:agent@example.com", customerConsented: true })).result).toBe("queued");
      await relayOutbox({ random: () => 0 });
    } finally {
      process.env.APPLE_STORE_API_KEYS = keys;
    }
    expect(fakeApple.requests.slice(received).filter((r) => r.path.endsWith(transactionId))).toHaveLength(1);
    expect(await reviewOf(requestId)).toMatchObject({ status: "sent", lastError: null });
    expect((await listRefundReviews([NO_KEY])).find((r) => r.id === Number(review.id))?.state).toMatchObject({ status: "sent", problem: null, awaiting: false });
  });

  it("a failed attempt whose retry would come at or after the deadline ends the answer not sent, instead of 'sending' until the store stopped listening", async () => {
    const { transactionId, requestId, review, messageId } = await queuedAnswer(UNKNOWN_KEY);
    const received = fakeApple.requests.length;
    // Half a second before the deadline; the first retry (random 0) would come a second later.
    await relayOutbox({ now: new Date(review.deadlineAt.getTime() - 500), random: () => 0 });
    expect(fakeApple.requests.slice(received).filter((r) => r.path.endsWith(transactionId))).toHaveLength(1);
    expect(await messageOf(messageId)).toMatchObject({ status: "dead", attempts: 1, lastError: "HTTP 401: refused" });
    expect(await reviewOf(requestId)).toMatchObject({ status: "failed", lastError: "HTTP 401: refused" });
    // And once the deadline passes, the worker's clock makes it expired.
    expect((await runRefundReviews({ now: new Date(review.deadlineAt.getTime() + 1) })).expired).toBeGreaterThanOrEqual(1);
    expect(await reviewOf(requestId)).toMatchObject({ status: "expired" });
  });
});

describe("the overview's deadline warning", () => {
  const insertReview = (tenant: string, store: "appstore" | "googleplay", leftMs: number, status = "open") =>
    getPool().query(
      `INSERT INTO refund_reviews (tenant_id, store, request_id, transaction_id, requested_at, deadline_at, status)
       VALUES ($1, $2, $3, $4, now() - interval '1 hour', now() + $5 * interval '1 millisecond', $6) RETURNING id::int AS id`,
      [tenant, store, randomUUID(), txn(), leftMs, status],
    );

  it("counts reviews of any store with less than NEAR_DEADLINE_MS left and nothing delivered, in the caller's products only", async () => {
    await insertReview(NEAR, "googleplay", 39 * 60_000);
    await insertReview(NEAR, "appstore", 2 * HOUR);
    await insertReview(NEAR, "appstore", 2 * HOUR, "failed");
    await insertReview(NEAR, "appstore", HOUR, "sending");
    // Not counted: delivered, beyond the window, past the deadline, and another product's.
    await insertReview(NEAR, "appstore", HOUR, "sent");
    await insertReview(NEAR, "googleplay", NEAR_DEADLINE_MS + HOUR);
    await insertReview(NEAR, "appstore", -60_000);
    await insertReview(ELSEWHERE, "googleplay", 30 * 60_000);

    const near = await reviewsNearDeadline([NEAR]);
    expect(near).toMatchObject({ count: 4, more: false });
    expect(near.soonest!.getTime()).toBeGreaterThan(Date.now() + 38 * 60_000);
    expect(near.soonest!.getTime()).toBeLessThan(Date.now() + 40 * 60_000);
    expect(near.soonestSecondsLeft).toBeGreaterThan(38 * 60);
    expect(await reviewsNearDeadline([])).toEqual({ count: 0, more: false, soonest: null, soonestSecondsLeft: null });
  });

  it("a Google Play review takes no answer from the console, with or without consent, and the worker does not try", async () => {
    const { rows } = await insertReview(OPTED_IN, "googleplay", 30 * 60_000);
    const id = rows[0].id as number;
    expect(await sendReviewAnswer({ reviewId: id, actor: "staff:agent@example.com", customerConsented: false })).toEqual({ result: "store-not-supported" });
    const before = (await outboxFor(OPTED_IN)).length;
    await runRefundReviews();
    expect(await outboxFor(OPTED_IN)).toHaveLength(before);
    const listed = (await listRefundReviews([OPTED_IN])).find((r) => r.id === id);
    expect(listed?.state).toMatchObject({ status: "open", awaiting: true, nearDeadline: true, answerable: false });
  });
});
