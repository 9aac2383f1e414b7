import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "@/lib/test/database";
import { connectedGoogleTenant, googleOrderId, postGooglePush, pushBody, pushToken, testIssuer, type TestIssuer } from "@/lib/test/google-play";
import { deliveredStoreOrder, orderLedger, refundedMoneyOf, type OrderLedger } from "@/lib/test/store-orders";
import { polledVoid, type VoidedPurchase } from "./model";
import { applyVoid } from "./receive-notification";

// Google Play's two feeds as a property (issue 16): the pushes and the polled voids of several orders,
// shuffled and redelivered the way Pub/Sub and overlapping polls deliver them, always leave the same
// ledger — state, what the player holds, what stays taken back under each rule. A partial void
// takes back its units once the poll says how many (the push cannot); a partial void before the
// full one and a partial void after it end alike: everything taken back, once.

useFreshDatabase();

const TENANT = "google-sequences";
const RUNS = Number(process.env.STORE_SEQUENCE_RUNS ?? 25);
const T0 = Date.UTC(2026, 11, 1);
let google: TestIssuer;
let token: string;

beforeAll(async () => {
  google = await testIssuer();
  process.env.GOOGLE_PUSH_JWKS_URL = google.jwksUrl;
  process.env.GOOGLE_PUSH_ISSUERS = google.issuer;
  await connectedGoogleTenant(TENANT);
  token = await pushToken(google, { tenant: TENANT });
});
afterAll(() => google.close());

/** One thing Google delivers, and which void it reports (none: a notification the ledger ignores). */
type Delivery = ({ readonly kind: "push"; readonly body: ReturnType<typeof pushBody> } | { readonly kind: "poll"; readonly v: VoidedPurchase }) & {
  readonly void: "full" | "partial" | null;
};

/** What Google says about one order: pushes (full or partial) and the voids a poll lists. */
const STORIES = {
  push: ["push-full"],
  poll: ["poll-full"],
  "push-and-poll": ["push-full", "poll-full"],
  partial: ["push-partial", "poll-partial"],
  "partial-then-full": ["push-partial", "poll-partial", "push-full", "poll-full"],
  noise: ["push-test"],
} as const;
type Story = keyof typeof STORIES;

// Three gems-pack units, currency: revoked by default.
const REFUNDED = { state: "refunded", held: { "gems-pack": 0 }, takenBack: { revoke: -3 }, cases: [] as string[] };
const DELIVERED = { state: "delivered", held: { "gems-pack": 3 }, takenBack: {}, cases: [] as string[] };
const PARTLY_REFUNDED = { state: "delivered", held: { "gems-pack": 2 }, takenBack: { revoke: -1 }, cases: [] as string[] };

async function plan(story: Story, n: number): Promise<{ story: Story; orderId: number; deliveries: Delivery[] }> {
  const google = googleOrderId();
  const order = await deliveredStoreOrder(TENANT, google, { channel: "googleplay", lines: [{ sku: "gems-pack", kind: "currency", quantity: 3 }] });
  const deliveries = STORIES[story].map((step, i): Delivery => {
    const at = T0 + n * 3_600_000 + i * 60_000;
    if (step === "push-test") return { kind: "push", body: pushBody({ eventTimeMillis: at, kind: "testNotification" }), void: null };
    const partial = step.endsWith("partial");
    const reported = partial ? "partial" : "full";
    if (step.startsWith("push")) return { kind: "push", body: pushBody({ eventTimeMillis: at, voided: { orderId: google, refundType: partial ? 2 : 1 } }), void: reported };
    return { kind: "poll", v: { orderId: google, purchaseToken: `token-${google}`, voidedTimeMillis: at, ...(partial ? { voidedQuantity: 1 } : {}) }, void: reported };
  });
  return { story, orderId: order.id, deliveries };
}

/** The ledger a story must leave, whatever order its deliveries arrived in. */
const EXPECTED: Readonly<Record<Story, Omit<OrderLedger, "refundTransitions">>> = {
  push: REFUNDED,
  poll: REFUNDED,
  "push-and-poll": REFUNDED,
  partial: PARTLY_REFUNDED,
  "partial-then-full": REFUNDED,
  noise: DELIVERED,
};

/**
 * The money each story leaves in the player's refunded total, of the ¥6.00 order of three units: all
 * of it once refunded; a partial void of one unit is 1/3 of the amount (lib/orders/refund-money.ts),
 * counted once however often the poll reads it; a full void after it is the whole amount, never more.
 */
const REFUNDED_MONEY: Readonly<Record<Story, number>> = {
  push: 6_00,
  poll: 6_00,
  "push-and-poll": 6_00,
  partial: 2_00,
  "partial-then-full": 6_00,
  noise: 0,
};

const arrival = fc.record({
  stories: fc.array(fc.constantFrom(...(Object.keys(STORIES) as Story[])), { minLength: 1, maxLength: 4 }),
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 16, maxLength: 16 }),
  redeliveries: fc.array(fc.record({ which: fc.nat(15), at: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 6 }),
});

describe("Google Play pushes and polls: any arrival order, the same ledger", () => {
  it("shuffled and redelivered pushes and polled voids end in the ledger their story says, refunding at most once", async () => {
    await fc.assert(
      fc.asyncProperty(arrival, async ({ stories, order, redeliveries }) => {
        const planned = await Promise.all(stories.map((story, n) => plan(story, n)));
        const all = planned.flatMap((p) => p.deliveries.map((d) => ({ d, p })));
        const schedule = [
          ...all.map((x, i) => ({ ...x, at: order[i % order.length]! + i * 1e-9 })),
          ...redeliveries.filter((r) => r.which < all.length).map((r) => ({ ...all[r.which]!, at: r.at })),
        ].sort((a, b) => a.at - b.at);
        for (const { d } of schedule) {
          if (d.kind === "push") expect((await postGooglePush(TENANT, d.body, token)).status).toBe(200);
          else await applyVoid(TENANT, polledVoid(d.v), d.v);
        }
        for (const p of planned) {
          const { refundTransitions, ...ledger } = await orderLedger(p.orderId);
          const want = EXPECTED[p.story];
          expect(ledger, p.story).toEqual(want);
          expect(await refundedMoneyOf(p.orderId), p.story).toBe(REFUNDED_MONEY[p.story]);
          expect(refundTransitions, p.story).toEqual(want.state === "refunded" ? ["request-refund/store/store:googleplay", "confirm-refund/store/store:googleplay"] : []);
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
