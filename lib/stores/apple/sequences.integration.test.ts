import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { appleNotificationBody, testAppleChain, type TestAppleChain, type TestNotification } from "@/lib/test/apple-store";
import { useFreshDatabase } from "@/lib/test/database";
import { connectedTenant, deliveredStoreOrder, orderLedger, postAppleNotification, type OrderLedger } from "@/lib/test/store-orders";

// The ordering rule as a property (issue 16): a store's notifications for several transactions,
// shuffled and duplicated the way retries and a busy network deliver them, always leave the same
// ledger as when they arrive in the order Apple signed them. One exception, by the state machine:
// refunded is terminal, so a REFUND_REVERSED that arrives after its REFUND was followed cannot move
// the order back — it files a case for ops instead (the "reversed" story checks exactly that).

useFreshDatabase();

const TENANT = "apple-sequences";
const RUNS = Number(process.env.STORE_SEQUENCE_RUNS ?? 25);
let apple: TestAppleChain;

beforeAll(async () => {
  apple = await testAppleChain();
  process.env.APPLE_TEST_ROOT_PEM = apple.rootPem;
  await connectedTenant(TENANT);
});

/** What Apple sends about one transaction, in signedDate order (one minute apart). */
const STORIES = {
  refund: ["REFUND"],
  "review-then-refund": ["CONSUMPTION_REQUEST", "REFUND"],
  "review-then-decline": ["CONSUMPTION_REQUEST", "REFUND_DECLINED"],
  "declined-then-refunded": ["REFUND_DECLINED", "CONSUMPTION_REQUEST", "REFUND"],
  "refund-twice": ["REFUND", "REFUND"],
  "noise-only": ["DID_CHANGE_RENEWAL_STATUS", "CONSUMPTION_REQUEST"],
  "refund-then-noise": ["REFUND", "PRICE_INCREASE"],
  reversed: ["CONSUMPTION_REQUEST", "REFUND", "REFUND_REVERSED"],
} as const satisfies Record<string, readonly string[]>;
type Story = keyof typeof STORIES;

const REFUNDED = { state: "refunded", held: { "gems-60": 0, "skin-cat": 0 }, reversals: 2, cases: [] as string[] };
const DELIVERED = { state: "delivered", held: { "gems-60": 60, "skin-cat": 1 }, reversals: 0, cases: [] as string[] };

/** The ledger each story must leave, whatever the order of arrival (but see `reversed`). */
const EXPECTED: Readonly<Record<Exclude<Story, "reversed">, Omit<OrderLedger, "refundTransitions">>> = {
  refund: REFUNDED,
  "review-then-refund": REFUNDED,
  "review-then-decline": DELIVERED,
  "declined-then-refunded": REFUNDED,
  "refund-twice": REFUNDED,
  "noise-only": DELIVERED,
  "refund-then-noise": REFUNDED,
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
      const notifications = STORIES[story].map((type, i) => ({ type, signedAt: base + i * 60_000, transactionId, uuid: randomUUID() }));
      return { story, orderId: order.id, notifications };
    }),
  );
}

/**
 * The reversed story: the REFUND is followed only if it arrived before the REFUND_REVERSED signed
 * after it (the order is then refunded, with one case for ops); otherwise it never wins.
 */
function reversedExpectation(p: Planned, arrived: readonly TestNotification[]): Omit<OrderLedger, "refundTransitions"> {
  const first = arrived.find((n) => n.transactionId === p.notifications[0]!.transactionId && (n.type === "REFUND" || n.type === "REFUND_REVERSED"));
  return first?.type === "REFUND" ? { ...REFUNDED, cases: ["store-refund-reversed:open"] } : DELIVERED;
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
          ...bodies.map((body, i) => ({ body, n: all[i]!, at: order[i % order.length]! + i * 1e-9 })),
          ...retries.filter((r) => r.which < bodies.length).map((r) => ({ body: bodies[r.which]!, n: all[r.which]!, at: r.at })),
        ].sort((a, b) => a.at - b.at);
        const arrived: TestNotification[] = [];
        for (const { body, n } of deliveries) {
          const res = await postAppleNotification(TENANT, body);
          expect(res.status).toBe(200);
          arrived.push(n);
        }
        for (const p of planned) {
          const { refundTransitions, ...ledger } = await orderLedger(p.orderId);
          const expected = p.story === "reversed" ? reversedExpectation(p, arrived) : EXPECTED[p.story];
          expect(ledger, p.story).toEqual(expected);
          // Refunded exactly once, by the store, however many notifications said so.
          expect(refundTransitions, p.story).toEqual(expected.state === "refunded" ? ["request-refund/store/store:appstore", "confirm-refund/store/store:appstore"] : []);
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it("a reversal: if the REFUND arrives first the order is refunded with one case for ops; if the REFUND_REVERSED does, the REFUND never wins", async () => {
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
        const { refundTransitions: _, ...ledger } = await orderLedger(p!.orderId);
        // refunded is terminal in the state machine: the reversal is a case, not a move back.
        expect(ledger).toEqual(refundFirst ? { ...REFUNDED, cases: ["store-refund-reversed:open"] } : DELIVERED);
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});
