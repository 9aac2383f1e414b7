import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { playerSummary } from "@/lib/players/queries/player-summary";
import { appleNotificationBody, testAppleChain, type TestAppleChain } from "@/lib/test/apple-store";
import { useFreshDatabase } from "@/lib/test/database";
import { connectedTenant, deliveredStoreOrder, postAppleNotification } from "@/lib/test/store-orders";
import { playerStoreEvents } from "./player-store-events";

useFreshDatabase();

// The player page's store refunds (issue 16): what the App Store said about one player's orders,
// and the refunds it made counted in the player's lifetime money.

const T = "store-player";
const T0 = Date.UTC(2026, 11, 1, 8);
let apple: TestAppleChain;

beforeAll(async () => {
  apple = await testAppleChain();
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  await connectedTenant(T);
});

describe("a player's store refunds", () => {
  it("lists refunds, reversals and reviews of the player's orders, newest first, and counts the store's refunds in the refund rate", async () => {
    const a = await deliveredStoreOrder(T, "tx-a");
    const b = await deliveredStoreOrder(T, "tx-b");
    await deliveredStoreOrder(T, "tx-c");
    const player = (await getPool().query<{ player_id: string }>(`SELECT player_id FROM orders WHERE id = $1`, [a.id])).rows[0]!.player_id;
    await getPool().query(`UPDATE orders SET player_id = $1 WHERE id = ANY($2::bigint[])`, [player, [a.id, b.id]]);
    const send = async (type: string, transactionId: string, minutes: number) =>
      expect((await postAppleNotification(T, await appleNotificationBody(apple, { type, transactionId, signedAt: T0 + minutes * 60_000 }))).status).toBe(200);
    await send("CONSUMPTION_REQUEST", "tx-a", 0);
    await send("REFUND", "tx-a", 10);
    await send("REFUND", "tx-b", 20);
    await send("REFUND_REVERSED", "tx-b", 30);
    await send("TEST", "tx-b", 40);

    const events = await playerStoreEvents(T, player);
    expect(events).toMatchObject({ total: 4, refunds: 2, reversals: 1 });
    expect(events.events.map((e) => [e.orderNo, e.type, e.outcome])).toEqual([
      [b.orderNo, "REFUND_REVERSED", "applied"],
      [b.orderNo, "REFUND", "applied"],
      [a.orderNo, "REFUND", "applied"],
      [a.orderNo, "CONSUMPTION_REQUEST", "recorded"],
    ]);
    expect(events.events[3]!.deadlineAt?.getTime()).toBe(T0 + 12 * 3_600_000);

    const summary = await playerSummary(T, player);
    // tx-b's refund was reversed (the order is delivered again): only tx-a counts as refunded.
    expect(summary.money).toEqual([{ currency: "CNY", orders: 2, paidOrders: 2, paid: 12_00, refundedOrders: 1, refunded: 6_00 }]);
    // The reversal was followed (reverse-refund), not left to a person: no case.
    expect(summary.exceptions).toEqual([]);
  });

  it("shows an App Store prorated refund as partial with the money it refunded, and its reversal giving that money back", async () => {
    const order = await deliveredStoreOrder(T, "tx-p");
    const player = (await getPool().query<{ player_id: string }>(`SELECT player_id FROM orders WHERE id = $1`, [order.id])).rows[0]!.player_id;
    const send = async (type: string, minutes: number, proratedMilliPercent?: number) =>
      expect(
        (await postAppleNotification(T, await appleNotificationBody(apple, { type, transactionId: "tx-p", signedAt: T0 + minutes * 60_000, ...(proratedMilliPercent ? { proratedMilliPercent } : {}) }))).status,
      ).toBe(200);
    await send("REFUND", 10, 25_000);
    expect((await playerStoreEvents(T, player)).events.map((e) => [e.type, e.partial, e.refundedAmount, e.currency])).toEqual([["REFUND", true, 1_50, "CNY"]]);
    expect((await playerSummary(T, player)).money).toMatchObject([{ paid: 6_00, refundedOrders: 1, refunded: 1_50 }]);

    await send("REFUND_REVERSED", 20);
    expect((await playerStoreEvents(T, player)).events.map((e) => [e.type, e.partial, e.refundedAmount])).toEqual([
      ["REFUND_REVERSED", false, -1_50],
      ["REFUND", true, 1_50],
    ]);
    expect((await playerSummary(T, player)).money).toMatchObject([{ paid: 6_00, refundedOrders: 0, refunded: 0 }]);
  });

  it("shows an App Store refund prorated at 100% as a full refund, as the ledger took it", async () => {
    const order = await deliveredStoreOrder(T, "tx-whole");
    const player = (await getPool().query<{ player_id: string }>(`SELECT player_id FROM orders WHERE id = $1`, [order.id])).rows[0]!.player_id;
    const body = await appleNotificationBody(apple, { type: "REFUND", transactionId: "tx-whole", signedAt: T0 + 10 * 60_000, proratedMilliPercent: 100_000 });
    expect((await postAppleNotification(T, body)).status).toBe(200);
    expect((await playerStoreEvents(T, player)).events.map((e) => [e.type, e.partial, e.refundedAmount])).toEqual([["REFUND", false, null]]);
    expect((await playerSummary(T, player)).money).toMatchObject([{ paid: 6_00, refundedOrders: 1, refunded: 6_00 }]);
  });
});
