import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { appleNotificationBody, testAppleChain, type TestAppleChain, type TestNotification } from "@/lib/test/apple-store";
import { verifyChains } from "@/lib/audit/chain";
import { getPool } from "@/lib/db/pool";
import { useFreshDatabase } from "@/lib/test/database";
import { connectedTenant, deliveredStoreOrder, orderLedger, postAppleNotification, refundedMoneyOf, type OrderLedger } from "@/lib/test/store-orders";

// The ordering rule as a property (issue 16): a store's notifications for several transactions,
// shuffled and duplicated the way retries and a busy network deliver them, always leave the same
// ledger as when they arrive in the order Apple signed them — the order's state, what the player
// holds per line, and what stays taken back under each rule. A reversed refund ends where it began
// however it arrived: followed and then reversed (reverse-refund gives the goods back), or never
// followed because the reversal signed after it was already known.

useFreshDatabase();

const TENANT = "apple-sequences";
const RUNS = Number(process.env.STORE_SEQUENCE_RUNS ?? 25);
let apple: TestAppleChain;

beforeAll(async () => {
  apple = await testAppleChain();
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  await connectedTenant(TENANT);
});

/** What Apple sends about one transaction, in signedDate order (one minute apart). "REFUND 40%" is a prorated refund. */
const STORIES = {
  refund: ["REFUND"],
  "review-then-refund": ["CONSUMPTION_REQUEST", "REFUND"],
  "review-then-decline": ["CONSUMPTION_REQUEST", "REFUND_DECLINED"],
  "declined-then-refunded": ["REFUND_DECLINED", "CONSUMPTION_REQUEST", "REFUND"],
  "refund-twice": ["REFUND", "REFUND"],
  "noise-only": ["DID_CHANGE_RENEWAL_STATUS", "CONSUMPTION_REQUEST"],
  "refund-then-noise": ["REFUND", "PRICE_INCREASE"],
  reversed: ["CONSUMPTION_REQUEST", "REFUND", "REFUND_REVERSED"],
  "reversed-then-refunded": ["REFUND", "REFUND_REVERSED", "REFUND"],
  prorated: ["REFUND 40%"],
  "prorated-then-reversed": ["REFUND 40%", "REFUND_REVERSED"],
} as const satisfies Record<string, readonly string[]>;
type Story = keyof typeof STORIES;

// 60 gems (currency: revoked by default) and a cosmetic (written off by default).
const REFUNDED = { state: "refunded", held: { "gems-60": 0, "skin-cat": 0 }, takenBack: { revoke: -60, "write-off": -1 }, cases: [] as string[] };
const DELIVERED = { state: "delivered", held: { "gems-60": 60, "skin-cat": 1 }, takenBack: {}, cases: [] as string[] };
// 40% of each line, rounded: 24 of 60 gems, none of the one cosmetic; the order stays delivered.
const PRORATED = { state: "delivered", held: { "gems-60": 36, "skin-cat": 1 }, takenBack: { revoke: -24 }, cases: [] as string[] };

/** The ledger each story must leave, whatever the order of arrival. */
const EXPECTED: Readonly<Record<Story, Omit<OrderLedger, "refundTransitions">>> = {
  refund: REFUNDED,
  "review-then-refund": REFUNDED,
  "review-then-decline": DELIVERED,
  "declined-then-refunded": REFUNDED,
  "refund-twice": REFUNDED,
  "noise-only": DELIVERED,
  "refund-then-noise": REFUNDED,
  reversed: DELIVERED,
  "reversed-then-refunded": REFUNDED,
  prorated: PRORATED,
  "prorated-then-reversed": DELIVERED,
};

/**
 * The money each story leaves in the player's refunded total, of the ¥6.00 order: all of it once
 * refunded, 40% (lib/orders/refund-money.ts) while a prorated refund stands, nothing once reversed.
 */
const REFUNDED_MONEY: Readonly<Record<Story, number>> = {
  refund: 6_00,
  "review-then-refund": 6_00,
  "review-then-decline": 0,
  "declined-then-refunded": 6_00,
  "refund-twice": 6_00,
  "noise-only": 0,
  "refund-then-noise": 6_00,
  reversed: 0,
  "reversed-then-refunded": 6_00,
  prorated: 2_40,
  "prorated-then-reversed": 0,
};

interface Planned {
  readonly story: Story;
  readonly orderId: number;
  readonly notifications: readonly TestNotification[];
}

async function plan(stories: readonly Story[]): Promise<Planned[]> {
  const base = Date.UTC(2026, 11, 1);
  return Promise.all(
    stories.map(async (story) => {
      const transactionId = `seq-${randomUUID()}`;
      const order = await deliveredStoreOrder(TENANT, transactionId);
      const notifications = STORIES[story].map((said, i): TestNotification => {
        const [type, share] = said.split(" ");
        return { type: type!, signedAt: base + i * 60_000, transactionId, uuid: randomUUID(), ...(share ? { proratedMilliPercent: parseInt(share, 10) * 1000 } : {}) };
      });
      return { story, orderId: order.id, notifications };
    }),
  );
}

const arrival = fc.record({
  stories: fc.array(fc.constantFrom(...(Object.keys(STORIES) as Story[])), { minLength: 1, maxLength: 4 }),
  // A permutation key per notification, and which ones a retry delivers again (and where).
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 12, maxLength: 12 }),
  retries: fc.array(fc.record({ which: fc.nat(11), at: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 6 }),
});

describe("App Store notifications: any arrival order, the same ledger", () => {
  it("shuffled and duplicated notification sequences always end in the ledger of their signed order", async () => {
    await fc.assert(
      fc.asyncProperty(arrival, async ({ stories, order, retries }) => {
        const planned = await plan(stories);
        const all = planned.flatMap((p) => p.notifications);
        // Each notification is signed once: a retry is the very same body again.
        const bodies = await Promise.all(all.map((n) => appleNotificationBody(apple, n)));
        const deliveries = [
          ...bodies.map((body, i) => ({ body, at: order[i % order.length]! + i * 1e-9 })),
          ...retries.filter((r) => r.which < bodies.length).map((r) => ({ body: bodies[r.which]!, at: r.at })),
        ].sort((a, b) => a.at - b.at);
        for (const { body } of deliveries) expect((await postAppleNotification(TENANT, body)).status).toBe(200);
        for (const p of planned) {
          const { refundTransitions, ...ledger } = await orderLedger(p.orderId);
          const expected = EXPECTED[p.story];
          expect(ledger, p.story).toEqual(expected);
          expect(await refundedMoneyOf(p.orderId), p.story).toBe(REFUNDED_MONEY[p.story]);
          // Every refund transition is the store's; a story without a reversal is refunded at most
          // once, however many notifications said so (with one, the order may go round the loop).
          for (const t of refundTransitions) expect(t, p.story).toMatch(/\/store\/store:appstore$/);
          if (!p.story.startsWith("reversed")) {
            expect(refundTransitions, p.story).toEqual(expected.state === "refunded" ? ["request-refund/store/store:appstore", "confirm-refund/store/store:appstore"] : []);
          }
          // The order's audit log holds each notification exactly once, however often it arrived.
          const facts = await getPool().query<{ uuid: string }>(
            `SELECT detail ->> 'notificationUUID' AS uuid FROM audit_events WHERE order_id = $1 AND action = 'store.notification'`,
            [p.orderId],
          );
          expect(facts.rows.map((f) => f.uuid).sort(), p.story).toEqual(p.notifications.map((n) => n.uuid).sort());
        }
      }),
      { numRuns: RUNS },
    );
    // Every fact written above (transitions, grants, notifications) is in an intact hash chain.
    expect(await verifyChains({ tenant: TENANT })).toMatchObject({ ok: true });
  }, 120_000);

  it("a reversal, whichever arrives first and however often: the order ends delivered holding everything, and goods came back at most once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.nat(3), async (refundFirst, copies) => {
        const [p] = await plan(["refund"]);
        const transactionId = p!.notifications[0]!.transactionId!;
        const refund = await appleNotificationBody(apple, p!.notifications[0]!);
        const reversed = await appleNotificationBody(apple, { type: "REFUND_REVERSED", signedAt: p!.notifications[0]!.signedAt + 60_000, transactionId });
        const sequence = refundFirst ? [refund, reversed] : [reversed, refund];
        for (const body of [...sequence, ...Array.from({ length: copies }, () => sequence).flat()]) {
          expect((await postAppleNotification(TENANT, body)).status).toBe(200);
        }
        const { refundTransitions, ...ledger } = await orderLedger(p!.orderId);
        expect(ledger).toEqual(DELIVERED);
        expect(await refundedMoneyOf(p!.orderId)).toBe(0);
        expect(refundTransitions).toEqual(
          refundFirst ? ["request-refund/store/store:appstore", "confirm-refund/store/store:appstore", "reverse-refund/store/store:appstore"] : [],
        );
        // Given back once: one reinstate row per line taken back, never more.
        const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM grants WHERE order_id = $1 AND grant_id LIKE 'reinstate:%'`, [p!.orderId]);
        expect(rows[0]!.n).toBe(refundFirst ? 2 : 0);
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});
