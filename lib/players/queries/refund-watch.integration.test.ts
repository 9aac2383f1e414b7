import { beforeAll, describe, expect, it, vi } from "vitest";
import { getPool } from "@/lib/db/pool";
import { getOrderPageFacts } from "@/lib/read/order-page-facts";
import { createOrder } from "@/lib/seed/orders";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { polledVoid, pushedVoid } from "@/lib/stores/google/model";
import { applyVoid } from "@/lib/stores/google/receive-notification";
import { playerStoreEvents } from "@/lib/stores/player-store-events";
import { appleNotificationBody, testAppleChain } from "@/lib/test/apple-store";
import { useFreshDatabase } from "@/lib/test/database";
import { connectedGoogleTenant, PACKAGE_NAME } from "@/lib/test/google-play";
import { connectedTenant, deliveredStoreOrder, postAppleNotification } from "@/lib/test/store-orders";
import { playerSummary, refundRate } from "./player-summary";

useFreshDatabase();

// Refund abuse at a glance (issue 16, item 6): one player refunded by both stores — the App Store's
// REFUND, Google Play's full void (pushed, then read again by the poll) and a partial one — their
// share of spend refunded — the partial one's share of its amount too (lib/orders/refund-money.ts) —
// and the watch list that puts it on every order of theirs.

const T = "watch-home";
const PLAYER = "refunder-1";
const T0 = Date.UTC(2026, 11, 1, 8);
const APPLE_REFUNDED = "2000000000000001";
const APPLE_KEPT = "2000000000000002";
const GOOGLE_REFUNDED = "GPA.1111-2222-3333-44444";
const GOOGLE_PARTIAL = "GPA.5555-6666-7777-88888";
const orders: Record<string, { id: number; orderNo: string }> = {};

async function setThreshold(percent: number | null) {
  const [settings] = await listTenantSettings([T]);
  await updateTenantSettings(T, settings!.updatedAt, { field: "refund_watch_percent", value: percent }, "staff:manager@example.com");
}

beforeAll(async () => {
  const apple = await testAppleChain();
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  await connectedTenant(T);
  await connectedGoogleTenant(T);
  orders.appleRefunded = await deliveredStoreOrder(T, APPLE_REFUNDED);
  orders.appleKept = await deliveredStoreOrder(T, APPLE_KEPT);
  orders.googleRefunded = await deliveredStoreOrder(T, GOOGLE_REFUNDED, { channel: "googleplay" });
  // A purchase of two packs: a void of one is half of it.
  orders.googlePartial = await deliveredStoreOrder(T, GOOGLE_PARTIAL, { channel: "googleplay", lines: [{ sku: "gems-pack", kind: "currency", quantity: 2 }] });
  await getPool().query(`UPDATE orders SET player_id = $1 WHERE id = ANY($2::bigint[])`, [PLAYER, Object.values(orders).map((o) => o.id)]);

  const refund = await appleNotificationBody(apple, { type: "REFUND", transactionId: APPLE_REFUNDED, signedAt: T0 });
  expect((await postAppleNotification(T, refund)).status).toBe(200);
  const push = { packageName: PACKAGE_NAME, eventTimeMillis: T0 + 60_000, voidedPurchaseNotification: { purchaseToken: "pt-g1", orderId: GOOGLE_REFUNDED, refundType: 1 } };
  expect(await applyVoid(T, pushedVoid("7001", push, push.voidedPurchaseNotification), push)).toMatchObject({ outcome: "applied" });
  // The poll reads the same void again: stored as a second fact, refunding nothing more.
  const polled = { purchaseToken: "pt-g1", orderId: GOOGLE_REFUNDED, voidedTimeMillis: T0 + 60_000 };
  expect(await applyVoid(T, polledVoid(polled), polled)).toMatchObject({ outcome: "unchanged" });
  const partial = { purchaseToken: "pt-g2", orderId: GOOGLE_PARTIAL, voidedTimeMillis: T0 + 120_000, voidedQuantity: 1 };
  expect(await applyVoid(T, polledVoid(partial), partial)).toMatchObject({ outcome: "applied" });
});

describe("a player refunded by both stores", () => {
  it("lists the refunds of both stores, counts each once, and counts the partial void's share of its order as refunded money", async () => {
    const events = await playerStoreEvents(T, PLAYER);
    expect(events).toMatchObject({ total: 4, refunds: 3, reversals: 0 });
    // Only the partial refund moved money beside its order's state; the full ones are the orders' `refunded`.
    expect(events.events.map((e) => [e.orderNo, e.store, e.type, e.partial, e.outcome, e.refundedAmount, e.currency])).toEqual([
      [orders.googlePartial!.orderNo, "googleplay", "VOIDED_PURCHASE", true, "applied", 3_00, "CNY"],
      [orders.googleRefunded!.orderNo, "googleplay", "VOIDED_PURCHASE", false, "unchanged", null, "CNY"],
      [orders.googleRefunded!.orderNo, "googleplay", "VOIDED_PURCHASE", false, "applied", null, "CNY"],
      [orders.appleRefunded!.orderNo, "appstore", "REFUND", false, "applied", null, "CNY"],
    ]);

    // Two of four ¥6 orders refunded in the ledger; the partial void took one of the two packs back and
    // left the order delivered: voidedQuantity 1 over the line quantity 2, times ¥6, is ¥3 refunded.
    const { money } = await playerSummary(T, PLAYER);
    expect(money).toEqual([{ currency: "CNY", orders: 4, paidOrders: 4, paid: 24_00, refundedOrders: 3, refunded: 15_00 }]);
    expect(refundRate(money[0]!)).toBe(0.625);
  });

  it("puts the player on the watch list on every order of theirs when the share reaches the threshold, and only then", async () => {
    const watchOf = async (orderNo: string) => (await getOrderPageFacts(T, orderNo))!.refundWatch;
    expect(await watchOf(orders.appleKept!.orderNo)).toBeNull();

    // 62.5% refunded: on the list at 62%, not at 63% (the partial refund's ¥3 makes the difference
    // from the 50% the two full refunds alone are).
    await setThreshold(62);
    for (const order of Object.values(orders)) expect(await watchOf(order.orderNo)).toEqual({ threshold: 62, currency: "CNY", share: 0.625 });
    const other = await createOrder(getPool(), { tenantId: T, playerId: "careful-1", amount: 6_00 });
    expect(await watchOf(other.orderNo)).toBeNull();

    await setThreshold(63);
    expect(await watchOf(orders.appleKept!.orderNo)).toBeNull();
    await setThreshold(null);
    expect(await watchOf(orders.appleKept!.orderNo)).toBeNull();
  });
});

describe("the order page's watch flag", () => {
  /** The statements getOrderPageFacts makes, each with its plan (sequential scans priced out, as in player.integration.test.ts). */
  async function factsPlans(orderNo: string): Promise<string[]> {
    const spy = vi.spyOn(getPool(), "query");
    await getOrderPageFacts(T, orderNo);
    const statements = spy.mock.calls.map(([text, values]) => ({ text: text as unknown as string, values: values as unknown[] }));
    spy.mockRestore();
    const client = await getPool().connect();
    try {
      // With statistics (as a live database has), not the guesses a never-analysed table gets, where
      // every index of a few rows costs the same and the planner's tie-break decides.
      await client.query("ANALYZE orders, order_transitions, payment_refunds, store_notifications");
      await client.query("SET enable_seqscan = off");
      const plans: string[] = [];
      for (const { text, values } of statements) {
        plans.push((await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, values)).rows.map((r) => r["QUERY PLAN"]).join("\n"));
      }
      return plans;
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  }

  it("is read in the order page's one facts statement, through the player's index, and skipped while the tenant keeps no list", async () => {
    await setThreshold(50);
    const [plan, ...more] = await factsPlans(orders.appleKept!.orderNo);
    expect(more).toEqual([]);
    expect(plan).toContain("orders_tenant_id_player_id_created_at_idx");
    expect(plan).not.toMatch(/Seq Scan on (orders|order_transitions|payment_refunds|store_notifications)\b/);
    expect(plan).toContain("store_notifications_tenant_id_order_id_idx");
    // The player's money sits under a filter on the threshold alone, checked once before any of it is read.
    expect(plan).toMatch(/One-Time Filter: \(s\.refund_watch_percent IS NOT NULL\)/);
  });
});
