import { exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { serviceAccountTokens, type AccessTokenProvider } from "@/lib/stores/google/access-token";
import { VOIDED_RETENTION_MS } from "@/lib/stores/google/voided-purchases";
import { useFreshDatabase } from "@/lib/test/database";
import { rowCounts } from "@/lib/test/fuzz";
import {
  connectedGoogleTenant,
  fakePlayApi,
  googleOrderId,
  postGooglePush,
  pushBody,
  pushToken,
  testIssuer,
  type FakePlayApi,
  type TestIssuer,
} from "@/lib/test/google-play";
import { deliveredStoreOrder, orderLedger } from "@/lib/test/store-orders";
import { POLL_INTERVAL_MS, POLL_OVERLAP_MS, pollVoidedPurchases } from "./voided-purchases-poll";

// The Voided Purchases poll against a local Play Developer API (issue 16): pagination, the
// per-tenant cursor and its audit facts, the same path as the pushes (a push and a poll of one void
// act once), and a failing API that leaves the cursor where it was.

useFreshDatabase();

const TENANT = "google-poll";
const OTHER = "google-poll-other";
const NOW = new Date(Date.UTC(2026, 11, 3, 12));
const T = (hoursAgo: number) => NOW.getTime() - hoursAgo * 3_600_000;
let api: FakePlayApi;
let google: TestIssuer;
let tokens: AccessTokenProvider;

beforeAll(async () => {
  [api, google] = await Promise.all([fakePlayApi(2), testIssuer()]);
  process.env.GOOGLE_PUSH_JWKS_URL = google.jwksUrl;
  process.env.GOOGLE_PUSH_ISSUERS = google.issuer;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  tokens = serviceAccountTokens(
    { client_email: "poller@example-project.iam.gserviceaccount.com", private_key: await exportPKCS8(privateKey), token_uri: `${api.url}/token` },
    globalThis.fetch,
  );
  await connectedGoogleTenant(TENANT);
  await connectedGoogleTenant(OTHER, "com.example.other");
  await ensureTenant(getPool(), tenantSpec("google-poll-unconnected"));
});
afterAll(() => Promise.all([api.close(), google.close()]));

const poll = (at: Date) => pollVoidedPurchases({ baseUrl: api.url, accessToken: tokens, now: () => at });
const polledAudits = (tenantId: string) =>
  getPrisma().auditEvent.findMany({ where: { action: "store.voided-purchases-polled", tenantId }, orderBy: { id: "asc" }, select: { actor: true, target: true, detail: true } });
const cursor = (tenantId: string) => getPrisma().storePollCursor.findUniqueOrThrow({ where: { tenantId_store: { tenantId, store: "googleplay" } } });
const REFUNDED = {
  state: "refunded",
  held: { "gems-60": 0, "skin-cat": 0 },
  takenBack: { revoke: -60, "write-off": -1 },
  refundTransitions: ["request-refund/store/store:googleplay", "confirm-refund/store/store:googleplay"],
  cases: [],
};

describe("the Voided Purchases poll", () => {
  it("reads every page since the cursor, refunds what the pushes missed, acts once on a void a push already brought, and moves the cursor with an audit fact", async () => {
    const [missed, pushed, partial, unknown, older] = [googleOrderId(), googleOrderId(), googleOrderId(), googleOrderId(), googleOrderId()];
    const missedOrder = await deliveredStoreOrder(TENANT, missed, { channel: "googleplay" });
    const pushedOrder = await deliveredStoreOrder(TENANT, pushed, { channel: "googleplay" });
    const partialOrder = await deliveredStoreOrder(TENANT, partial, { channel: "googleplay", lines: [{ sku: "gems-pack", kind: "currency", quantity: 3 }] });
    const olderOrder = await deliveredStoreOrder(TENANT, older, { channel: "googleplay" });
    // The push of one void arrived; the poll will read it too.
    expect((await postGooglePush(TENANT, pushBody({ eventTimeMillis: T(5), voided: { orderId: pushed } }), await pushToken(google, { tenant: TENANT }))).json).toMatchObject({
      outcome: "applied",
    });
    api.voids.set("com.example.game", [
      { orderId: missed, voidedTimeMillis: T(6) },
      { orderId: pushed, voidedTimeMillis: T(5) },
      { orderId: partial, voidedTimeMillis: T(4), voidedQuantity: 1 },
      { orderId: unknown, voidedTimeMillis: T(3) },
      { orderId: googleOrderId(), voidedTimeMillis: T(2), voidedQuantity: 2 },
      // Older than Google keeps: outside the first window.
      { orderId: older, voidedTimeMillis: NOW.getTime() - 31 * 24 * 3_600_000 },
    ]);

    expect(await poll(NOW)).toEqual({ tenants: 2, voids: 5, stored: 5, failed: 0 });

    const requests = api.requests.filter((r) => r.packageName === "com.example.game");
    expect(requests.map((r) => r.query.token ?? null)).toEqual([null, "2", "4"]);
    expect(requests[0]!.query).toMatchObject({
      startTime: String(NOW.getTime() - VOIDED_RETENTION_MS),
      endTime: String(NOW.getTime()),
      type: "1",
      includeQuantityBasedPartialRefund: "true",
    });
    expect(requests.every((r) => r.authorization === "Bearer ya29.test-access-token")).toBe(true);
    // One token for the whole run, minted by the service account's signed grant.
    expect(api.tokensIssued).toEqual(["poller@example-project.iam.gserviceaccount.com"]);
    expect(api.requests.filter((r) => r.packageName === "com.example.other")).toHaveLength(1);

    expect(await orderLedger(missedOrder.id)).toEqual(REFUNDED);
    expect(await orderLedger(pushedOrder.id)).toEqual(REFUNDED);
    // One unit of the three taken back under the tenant's rule for currency; the order stays delivered.
    expect(await orderLedger(partialOrder.id)).toEqual({ state: "delivered", held: { "gems-pack": 2 }, takenBack: { revoke: -1 }, refundTransitions: [], cases: [] });
    expect(await orderLedger(olderOrder.id)).toMatchObject({ state: "delivered", refundTransitions: [] });
    const polled = await getPrisma().storeNotification.findMany({
      where: { tenantId: TENANT, notificationId: { startsWith: "voided:" } },
      orderBy: { signedAt: "asc" },
      select: { transactionId: true, subtype: true, outcome: true, detail: true },
    });
    expect(polled.map((n) => [n.transactionId, n.subtype, n.outcome])).toEqual([
      [missed, "FULL_REFUND", "applied"],
      [pushed, "FULL_REFUND", "unchanged"],
      [partial, "QUANTITY_BASED_PARTIAL_REFUND", "applied"],
      [unknown, "FULL_REFUND", "no-order"],
      [expect.any(String), "QUANTITY_BASED_PARTIAL_REFUND", "no-order"],
    ]);
    expect(polled[2]!.detail).toMatchObject({ source: "poll", refundType: "partial", voidedQuantity: 1 });
    expect(await getPrisma().orderException.count({ where: { orderId: BigInt(partialOrder.id) } })).toBe(0);

    expect((await cursor(TENANT)).cursorAt!.getTime()).toBe(T(2));
    expect((await cursor(OTHER)).cursorAt).toBeNull();
    expect(await polledAudits(TENANT)).toEqual([
      {
        actor: "system:voided-purchases-poll",
        target: `tenant:${TENANT}`,
        detail: {
          store: "googleplay",
          packageName: "com.example.game",
          startTime: new Date(NOW.getTime() - VOIDED_RETENTION_MS).toISOString(),
          endTime: NOW.toISOString(),
          cursorBefore: null,
          cursorAfter: new Date(T(2)).toISOString(),
          pages: 3,
          voids: 5,
          stored: 5,
          skipped: 0,
        },
      },
    ]);
    // Not connected: never polled, no cursor.
    expect(await getPrisma().storePollCursor.count({ where: { tenantId: "google-poll-unconnected" } })).toBe(0);
  });

  it("polls a tenant again only after the interval, from a day before its cursor; what it reads again changes nothing", async () => {
    const requestsBefore = api.requests.length;
    expect(await poll(new Date(NOW.getTime() + 60_000))).toEqual({ tenants: 0, voids: 0, stored: 0, failed: 0 });
    expect(api.requests.length).toBe(requestsBefore);

    const later = new Date(NOW.getTime() + POLL_INTERVAL_MS);
    const before = await rowCounts();
    // The day before the cursor holds all five voids read before: each is a duplicate.
    expect(await poll(later)).toEqual({ tenants: 2, voids: 5, stored: 0, failed: 0 });
    expect(await rowCounts()).toEqual(before);
    const [again] = api.requests.slice(requestsBefore).filter((r) => r.packageName === "com.example.game");
    expect(again!.query.startTime).toBe(String(T(2) - POLL_OVERLAP_MS));
    expect((await cursor(TENANT)).cursorAt!.getTime()).toBe(T(2));
    expect((await polledAudits(TENANT)).at(-1)!.detail).toMatchObject({ cursorBefore: new Date(T(2)).toISOString(), voids: 5, stored: 0 });
  });

  it("an API that fails leaves the cursor where it was, records the error, and the next run reads the window again", async () => {
    const late = googleOrderId();
    const order = await deliveredStoreOrder(TENANT, late, { channel: "googleplay" });
    const at = new Date(NOW.getTime() + 2 * POLL_INTERVAL_MS);
    api.voids.get("com.example.game")!.push({ orderId: late, voidedTimeMillis: at.getTime() - 60_000 });
    api.failNext = 503;
    const report = await pollVoidedPurchases({ baseUrl: api.url, accessToken: tokens, now: () => at, intervalMs: POLL_INTERVAL_MS });
    expect(report).toMatchObject({ failed: 1 });
    expect(await cursor(TENANT)).toMatchObject({ lastError: "voided purchases: HTTP 503" });
    expect((await cursor(TENANT)).cursorAt!.getTime()).toBe(T(2));
    expect((await polledAudits(TENANT)).at(-1)!.detail).toMatchObject({ error: "voided purchases: HTTP 503", cursorBefore: new Date(T(2)).toISOString() });
    expect(await orderLedger(order.id)).toMatchObject({ state: "delivered" });

    const next = new Date(at.getTime() + POLL_INTERVAL_MS);
    expect(await poll(next)).toMatchObject({ stored: 1, failed: 0 });
    expect(await orderLedger(order.id)).toEqual(REFUNDED);
    expect(await cursor(TENANT)).toMatchObject({ lastError: null });
    expect((await cursor(TENANT)).cursorAt!.getTime()).toBe(at.getTime() - 60_000);
  });

  it("without a token provider (no service account configured) nothing is polled", async () => {
    const requestsBefore = api.requests.length;
    expect(await pollVoidedPurchases({ baseUrl: api.url, accessToken: null, now: () => new Date(NOW.getTime() + 10 * POLL_INTERVAL_MS) })).toEqual({
      tenants: 0,
      voids: 0,
      stored: 0,
      failed: 0,
    });
    expect(api.requests.length).toBe(requestsBefore);
  });
});
