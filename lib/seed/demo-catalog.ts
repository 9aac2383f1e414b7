// What the demo seeder generates, as data: the two products' price tiers and order lines, and the
// order stories (scenarios) with how often each happens. Pure: lib/seed/demo/ turns it into bulk SQL.
import type { LineKind } from "@/lib/orders/take-back";
import { TRANSITIONS, type OrderEvent, type OrderState } from "@/lib/orders/machine";

export type DemoTenantId = "xiaoxiao" | "fangzhou";

export interface DemoLine {
  readonly sku: string;
  readonly kind: LineKind;
  /** The first line is the one delivered in two batches, so it needs at least 2 units. */
  readonly quantity: number;
}

export interface DemoProduct {
  readonly code: string;
  /** Minor units (fen). */
  readonly price: number;
  /** Out of 1000 per tenant. */
  readonly weight: number;
  readonly lines: readonly DemoLine[];
}

export type DemoDelivery =
  | { readonly mode: "external"; readonly actor: string; readonly grantPrefix: string; readonly bizKeyPrefix: string }
  | { readonly mode: "managed" };

export interface DemoTenantCatalog {
  /** Order numbers: prefix + order date (Asia/Shanghai) + the order id, so a second run never collides. */
  readonly orderPrefix: string;
  readonly playerPrefix: string;
  /** Share of all seeded orders. */
  readonly share: number;
  /** Players are reused: about this many orders per player. */
  readonly ordersPerPlayer: number;
  /**
   * Who drives delivery, as the tenant's delivery_mode says. External: the game server, through the
   * API, with keys of its own. Managed: our delivery coordinator, whose own keys the seeder writes
   * (lib/seed/demo/delivery-keys.ts), so a live coordinator carries on from seeded orders.
   */
  readonly delivery: DemoDelivery;
  readonly products: readonly DemoProduct[];
}

/**
 * Seed 000's two products. 消消: small frequent purchases, weighted average exactly ¥14.50;
 * 方舟: main tier ¥128, weighted average exactly ¥182.00. Multi-line packs mix currency, cosmetics,
 * stamina and items, so refunds exercise both dispositions (revoke and write-off).
 */
export const DEMO_CATALOG: Readonly<Record<DemoTenantId, DemoTenantCatalog>> = {
  xiaoxiao: {
    orderPrefix: "XX",
    playerPrefix: "xx-",
    share: 0.75,
    ordersPerPlayer: 6,
    delivery: { mode: "external", actor: "game:xiaoxiao-server", grantPrefix: "srv", bizKeyPrefix: "ticket-" },
    products: [
      { code: "coins-60", price: 6_00, weight: 400, lines: [{ sku: "coins", kind: "currency", quantity: 60 }] },
      { code: "energy-refill", price: 6_00, weight: 100, lines: [{ sku: "energy", kind: "stamina", quantity: 30 }] },
      { code: "coins-130", price: 12_00, weight: 220, lines: [{ sku: "coins", kind: "currency", quantity: 130 }] },
      {
        code: "starter-gift",
        price: 18_00,
        weight: 120,
        lines: [
          { sku: "coins", kind: "currency", quantity: 180 },
          { sku: "frame-spring", kind: "cosmetic", quantity: 1 },
        ],
      },
      {
        code: "weekly-bundle",
        price: 30_00,
        weight: 110,
        lines: [
          { sku: "coins", kind: "currency", quantity: 320 },
          { sku: "skin-bunny", kind: "cosmetic", quantity: 1 },
          { sku: "energy", kind: "stamina", quantity: 20 },
        ],
      },
      {
        code: "treasure-chest",
        price: 68_00,
        weight: 50,
        lines: [
          { sku: "coins", kind: "currency", quantity: 750 },
          { sku: "hammer", kind: "item", quantity: 5 },
          { sku: "energy", kind: "stamina", quantity: 50 },
        ],
      },
    ],
  },
  fangzhou: {
    orderPrefix: "FZ",
    playerPrefix: "fz-",
    share: 0.25,
    ordersPerPlayer: 4,
    delivery: { mode: "managed" },
    products: [
      {
        code: "monthly-card",
        price: 30_00,
        weight: 100,
        lines: [
          { sku: "crystal", kind: "currency", quantity: 300 },
          { sku: "sanity-potion", kind: "stamina", quantity: 6 },
        ],
      },
      { code: "crystal-680", price: 68_00, weight: 190, lines: [{ sku: "crystal", kind: "currency", quantity: 680 }] },
      {
        code: "supply-128",
        price: 128_00,
        weight: 430,
        lines: [
          { sku: "crystal", kind: "currency", quantity: 1280 },
          { sku: "skin-vanguard", kind: "cosmetic", quantity: 1 },
          { sku: "sanity-potion", kind: "stamina", quantity: 5 },
        ],
      },
      {
        code: "crystal-3280",
        price: 328_00,
        weight: 220,
        lines: [
          { sku: "crystal", kind: "currency", quantity: 3280 },
          { sku: "recruit-permit", kind: "item", quantity: 10 },
        ],
      },
      {
        code: "crystal-6480",
        price: 648_00,
        weight: 60,
        lines: [
          { sku: "crystal", kind: "currency", quantity: 6480 },
          { sku: "recruit-permit", kind: "item", quantity: 20 },
          { sku: "skin-nightfall", kind: "cosmetic", quantity: 1 },
        ],
      },
    ],
  },
};

/**
 * `dense` (the default) gives most delivered orders a refund dispute, so the history averages
 * more than 5 transitions per order: deep timelines and a realistically sized audit log for the
 * benchmarks. `typical` keeps seed 000's proportions (refunds about 3-4x the lost orders) and
 * averages about 2.9 transitions per order.
 */
export const HISTORY_PROFILES = ["dense", "typical"] as const;
export type HistoryProfile = (typeof HISTORY_PROFILES)[number];

/**
 * How an order's last state relates to its tenant's max dwell for that state: `fresh` is still
 * within it, `stuck` is past it (what the stuck queues show), `settled` is a final or resting state
 * anywhere in the last ~90 days.
 */
export type Tail = "fresh" | "stuck" | "settled";

export interface Scenario {
  readonly code: string;
  readonly events: readonly OrderEvent[];
  readonly tail: Tail;
  /** Who closes: the timeout job or an agent in the console. */
  readonly closeVia?: "job" | "console";
  /** Out of 1000 per profile. */
  readonly weight: Readonly<Record<HistoryProfile, number>>;
}

const PAY_DELIVER: readonly OrderEvent[] = ["pay", "begin-delivery", "confirm-delivery"];

export const SCENARIOS: readonly Scenario[] = [
  { code: "created-fresh", events: [], tail: "fresh", weight: { dense: 6, typical: 10 } },
  { code: "created-stuck", events: [], tail: "stuck", weight: { dense: 4, typical: 5 } },
  { code: "closed-by-timeout", events: ["close"], closeVia: "job", tail: "settled", weight: { dense: 40, typical: 60 } },
  { code: "closed-by-agent", events: ["close"], closeVia: "console", tail: "settled", weight: { dense: 6, typical: 8 } },
  { code: "paid-fresh", events: ["pay"], tail: "fresh", weight: { dense: 3, typical: 3 } },
  { code: "paid-stuck", events: ["pay"], tail: "stuck", weight: { dense: 5, typical: 5 } },
  { code: "delivering-fresh", events: ["pay", "begin-delivery"], tail: "fresh", weight: { dense: 3, typical: 3 } },
  { code: "delivering-stuck", events: ["pay", "begin-delivery"], tail: "stuck", weight: { dense: 5, typical: 5 } },
  {
    code: "delivering-after-rejected-refund",
    events: ["pay", "begin-delivery", "request-refund", "reject-refund"],
    tail: "stuck",
    weight: { dense: 3, typical: 1 },
  },
  { code: "delivered", events: PAY_DELIVER, tail: "settled", weight: { dense: 120, typical: 838 } },
  {
    code: "delivered-refund-rejected",
    events: [...PAY_DELIVER, "request-refund", "reject-refund"],
    tail: "settled",
    weight: { dense: 270, typical: 15 },
  },
  {
    code: "delivered-refund-rejected-twice",
    events: [...PAY_DELIVER, "request-refund", "reject-refund", "request-refund", "reject-refund"],
    tail: "settled",
    weight: { dense: 255, typical: 2 },
  },
  {
    code: "delivered-after-rejected-refund",
    events: ["pay", "begin-delivery", "request-refund", "reject-refund", "confirm-delivery"],
    tail: "settled",
    weight: { dense: 40, typical: 2 },
  },
  { code: "refunding-fresh", events: [...PAY_DELIVER, "request-refund"], tail: "fresh", weight: { dense: 6, typical: 4 } },
  { code: "refunding-stuck", events: [...PAY_DELIVER, "request-refund"], tail: "stuck", weight: { dense: 4, typical: 2 } },
  { code: "refunding-before-delivery", events: ["pay", "request-refund"], tail: "fresh", weight: { dense: 2, typical: 1 } },
  {
    code: "refunded",
    events: [...PAY_DELIVER, "request-refund", "confirm-refund"],
    tail: "settled",
    weight: { dense: 90, typical: 25 },
  },
  {
    code: "refunded-after-dispute",
    events: [...PAY_DELIVER, "request-refund", "reject-refund", "request-refund", "confirm-refund"],
    tail: "settled",
    weight: { dense: 120, typical: 3 },
  },
  {
    code: "refunded-before-delivery",
    events: ["pay", "request-refund", "confirm-refund"],
    tail: "settled",
    weight: { dense: 8, typical: 5 },
  },
  {
    code: "refunded-partly-delivered",
    events: ["pay", "begin-delivery", "request-refund", "confirm-refund"],
    tail: "settled",
    weight: { dense: 10, typical: 3 },
  },
];

export interface ScenarioStep {
  readonly step: number;
  readonly event: OrderEvent;
  readonly from: OrderState;
  readonly to: OrderState;
  /** Which refund request this refund event belongs to (1, 2, …); 0 for other events. */
  readonly cycle: number;
}

export type Delivery = "none" | "partial" | "full";

export interface ScenarioPlan {
  readonly steps: readonly ScenarioStep[];
  readonly finalState: OrderState;
  /** Full: confirm-delivery happened, every line granted. Partial: delivery began, never confirmed. */
  readonly delivery: Delivery;
}

/**
 * Walks the events through the state table (reject-refund returns to the state the refund was
 * requested from), so a scenario that is not a legal history fails here instead of in the data.
 */
export function planScenario(events: readonly OrderEvent[]): ScenarioPlan {
  let state: OrderState = "created";
  let beforeRefund: OrderState | null = null;
  let cycle = 0;
  const steps = events.map((event, index): ScenarioStep => {
    const edge = TRANSITIONS[state][event];
    if (!edge) throw new Error(`scenario ${events.join(",")}: ${event} is illegal from ${state}`);
    if (event === "request-refund") {
      beforeRefund = state;
      cycle += 1;
    }
    const to: OrderState | null = edge.to === "previous" ? beforeRefund : edge.to;
    if (!to) throw new Error(`scenario ${events.join(",")}: ${event} has no previous state to return to`);
    const isRefundEvent = event === "request-refund" || event === "confirm-refund" || event === "reject-refund";
    const step = { step: index + 1, event, from: state, to, cycle: isRefundEvent ? cycle : 0 };
    state = to;
    return step;
  });
  const delivery: Delivery = events.includes("confirm-delivery")
    ? "full"
    : events.includes("begin-delivery")
      ? "partial"
      : "none";
  return { steps, finalState: state, delivery };
}

/** Expands weights (summing to 1000) into 1000 buckets of 1-based indexes: one array lookup picks. */
export function pickTable(weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total !== 1000) throw new Error(`weights must add up to 1000, not ${total}`);
  return weights.flatMap((w, index) => Array.from({ length: w }, () => index + 1));
}

/** Weighted mean of per-item values: the catalogue's average price, the expected history length. */
export function weightedMean(items: readonly { weight: number; value: number }[]): number {
  const total = items.reduce((sum, i) => sum + i.weight, 0);
  return items.reduce((sum, i) => sum + i.weight * i.value, 0) / total;
}
