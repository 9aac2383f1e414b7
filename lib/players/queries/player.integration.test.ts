import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { playerOrders, type PlayerOrder } from "./player-orders";
import { playerSummary, refundRate } from "./player-summary";

useFreshDatabase();

// One player, "abuser", in product `home`: paid orders, a refunded one, a partly channel-refunded
// one, an unpaid one, a payment the ledger refused (and its refund), orders in a second currency,
// and open and closed exceptions. The same player id in `away` (another product) must never count.

const T = "home";
const P = "abuser";
const ids: Record<string, number> = {};

async function order(key: string, spec: { amount: number; currency?: string; pay?: boolean; createdAgoMin: number; tenantId?: string }) {
  const created = await createOrder(getPool(), {
    tenantId: spec.tenantId ?? T,
    orderNo: key,
    playerId: P,
    amount: spec.amount,
    ...(spec.currency ? { currency: spec.currency } : {}),
    lines: [{ sku: "skin-1", kind: "cosmetic", quantity: 1 }],
    createdAt: new Date(Date.now() - spec.createdAgoMin * 60_000),
  });
  ids[key] = created.id;
  if (spec.pay) await transit({ orderId: created.id, event: "pay", bizKey: `txn-${key}`, amount: spec.amount, actor: "channel:alipay", source: "callback" });
  return created;
}

async function refundFully(key: string) {
  const orderId = ids[key]!;
  await transit({ orderId, event: "request-refund", bizKey: `rf-${key}`, actor: "staff:agent@example.com", source: "console", reason: "asked" });
  await transit({ orderId, event: "confirm-refund", bizKey: `rc-${key}`, actor: "channel:alipay", source: "callback" });
}

async function channelRefund(key: string, paymentTxn: string, amount: number, status: "confirmed" | "failed" | "sent", paymentAmount = amount) {
  await getPool().query(
    `INSERT INTO payment_refunds (tenant_id, refund_id, order_id, channel, payment_txn, payment_amount, amount, currency, reason, requested_by, status, channel_ref)
     VALUES ($1, $2, $3, 'alipay', $4, $5, $6, 'CNY', 'r', 'staff:ops@example.com', $7, $8)`,
    [T, `pr-${key}-${paymentTxn}-${status}`, ids[key], paymentTxn, paymentAmount, amount, status, status === "sent" ? null : `ref-${key}-${status}`],
  );
}

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec(T));
  await ensureTenant(pool, tenantSpec("away"));
  await order("A-1", { amount: 100_00, pay: true, createdAgoMin: 60 });
  await order("A-2", { amount: 30_00, pay: true, createdAgoMin: 50 });
  await refundFully("A-2");
  await order("A-3", { amount: 50_00, pay: true, createdAgoMin: 40 });
  // A channel refund of part of A-3's accepted payment counts; a failed one and one still with the
  // channel do not; a refund of a stray payment on the same order (never accepted) does not either.
  await channelRefund("A-3", "txn-A-3", 20_00, "confirmed", 50_00);
  await channelRefund("A-3", "txn-A-3", 5_00, "failed", 50_00);
  await channelRefund("A-3", "txn-A-3", 7_00, "sent", 50_00);
  await channelRefund("A-3", "txn-stray", 50_00, "confirmed");
  await order("A-4", { amount: 999_00, createdAgoMin: 30 }); // never paid
  await order("U-1", { amount: 5_00, currency: "USD", pay: true, createdAgoMin: 20 });
  await order("AWAY-1", { amount: 1_000_00, pay: true, createdAgoMin: 10, tenantId: "away" });
  await pool.query(
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, biz_key, amount, actor, status, created_at, resolved_at, sla_due_at)
     VALUES ($1, $2, 'second-payment', 'txn-stray', 5000, 'channel:alipay', 'open', now() - interval '5 hours', NULL, now() - interval '1 hour'),
            ($1, $3, 'delivery-failed', 'g-1', NULL, 'system', 'resolved', now() - interval '2 hours', now(), now() + interval '1 hour'),
            ('away', $4, 'amount-mismatch', 'txn-x', 1, 'channel:alipay', 'open', now(), NULL, now() + interval '1 hour')`,
    [T, ids["A-3"], ids["A-1"], ids["AWAY-1"]],
  );
  // Other players, so the planner prices a scan of the product as what it is.
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT $1, 'F-' || n, CASE WHEN n % 2 = 0 THEN 'whale' ELSE 'filler-' || (n % 700) END, 600, 'CNY', 'paid', now(),
            now() - (n / 3) * interval '1 minute', now()
     FROM generate_series(1, 6000) n`,
    [T],
  );
  await pool.query(`ANALYZE orders, order_transitions, payment_refunds, order_exceptions`);
});

describe("playerSummary", () => {
  it("counts paid and refunded money per currency, by the page's definition", async () => {
    const summary = await playerSummary(T, P);
    expect(summary.money).toEqual([
      // paid: A-1 + A-2 + A-3 (A-4 never paid); refunded: A-2 whole + 20.00 confirmed of A-3's payment.
      { currency: "CNY", orders: 4, paidOrders: 3, paid: 180_00, refundedOrders: 2, refunded: 50_00 },
      { currency: "USD", orders: 1, paidOrders: 1, paid: 5_00, refundedOrders: 0, refunded: 0 },
    ]);
    expect(refundRate(summary.money[0]!)).toBeCloseTo(50 / 180);
    expect(refundRate({ paid: 0, refunded: 0 })).toBe(0);
  });

  it("lists the open exceptions of the player's orders in this product only", async () => {
    const summary = await playerSummary(T, P);
    expect(summary.exceptionCount).toBe(1);
    expect(summary.exceptions).toEqual([
      expect.objectContaining({ orderNo: "A-3", kind: "second-payment", status: "open", amount: 50_00, currency: "CNY", bizKey: "txn-stray", overdue: true }),
    ]);
  });

  it("is empty for a player with no orders here", async () => {
    expect(await playerSummary("away", "nobody")).toEqual({ money: [], firstOrderAt: null, lastOrderAt: null, exceptions: [], exceptionCount: 0 });
  });
});

describe("playerOrders", () => {
  it("walks every order of the player in the product, newest first, and back", async () => {
    const seen: PlayerOrder[] = [];
    let page = await playerOrders({ tenantId: T, playerId: P, limit: 2 });
    expect(page.newer).toBeNull();
    seen.push(...page.rows);
    const pages = [page];
    while (page.older) {
      page = await playerOrders({ tenantId: T, playerId: P, limit: 2, after: page.older });
      pages.push(page);
      seen.push(...page.rows);
    }
    expect(seen.map((o) => o.orderNo)).toEqual(["U-1", "A-4", "A-3", "A-2", "A-1"]);
    expect(seen.find((o) => o.orderNo === "A-2")?.state).toBe("refunded");
    // From the last page, "newer" leads back to the page before it.
    const back = await playerOrders({ tenantId: T, playerId: P, limit: 2, before: pages.at(-1)!.newer! });
    expect(back.rows.map((o) => o.orderNo)).toEqual(["A-3", "A-2"]);
  });

  it("keeps orders created at the same instant apart by id", async () => {
    const at = new Date("2026-11-01T00:00:00Z");
    for (const orderNo of ["S-1", "S-2", "S-3"]) await createOrder(getPool(), { tenantId: T, orderNo, playerId: "twins", createdAt: at });
    const first = await playerOrders({ tenantId: T, playerId: "twins", limit: 2 });
    const second = await playerOrders({ tenantId: T, playerId: "twins", limit: 2, after: first.older! });
    expect([...first.rows, ...second.rows].map((o) => o.orderNo)).toEqual(["S-3", "S-2", "S-1"]);
    expect(second.older).toBeNull();
  });
});

// Plans: with sequential scans priced out, one appears only where no index can serve the statement.
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
const planNode: z.ZodType<PlanNode> = z.lazy(() =>
  z.object({ "Node Type": z.string(), "Relation Name": z.string().optional(), "Index Name": z.string().optional(), Plans: z.array(planNode).optional() }),
);
const explained = z.object({ "QUERY PLAN": z.tuple([z.object({ Plan: planNode })]) });
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

async function plansOf(run: () => Promise<unknown>): Promise<PlanNode[]> {
  const spy = vi.spyOn(getPool(), "query");
  await run();
  const statements = spy.mock.calls.map(([text, values]) => ({ text: text as unknown as string, values: values as unknown[] }));
  spy.mockRestore();
  const client = await getPool().connect();
  try {
    await client.query("SET enable_seqscan = off");
    const plans: PlanNode[] = [];
    for (const { text, values } of statements) plans.push((await one(client, explained, `EXPLAIN (FORMAT JSON) ${text}`, values))["QUERY PLAN"][0].Plan);
    return plans;
  } finally {
    await client.query("RESET enable_seqscan");
    client.release();
  }
}

describe("the player page's statements read through indexes", () => {
  afterEach(() => vi.restoreAllMocks());

  // "whale" has 3,000 orders (some created at the same instant): what a page must not read whole.
  it.each([
    ["summary", () => playerSummary(T, P)],
    ["summary of a whale", () => playerSummary(T, "whale")],
    ["first page", () => playerOrders({ tenantId: T, playerId: "whale" })],
    ["older page", () => playerOrders({ tenantId: T, playerId: "whale", after: { createdAt: "2030-01-01T00:00:00.000000Z", id: 1 } })],
    ["newer page", () => playerOrders({ tenantId: T, playerId: "whale", before: { createdAt: "2020-01-01T00:00:00.000000Z", id: 1 } })],
  ])("%s", async (_, run) => {
    const plans = await plansOf(run);
    if (process.env.SHOW_PLANS) console.log(_, JSON.stringify(plans, null, 1));
    expect(plans.length).toBeGreaterThan(0);
    const scans = plans.flatMap(nodes).filter((n) => n["Relation Name"] !== undefined && n["Relation Name"] !== "tenants");
    expect(scans.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"])).toEqual([]);
    // The player's orders are a range of their index; orders are otherwise only fetched one by one
    // (by primary key, for an exception found through its own index).
    const orderIndexes = new Set(plans.flatMap(nodes).filter((n) => n["Index Name"]?.startsWith("orders_")).map((n) => n["Index Name"]));
    expect(orderIndexes).toContain("orders_tenant_id_player_id_created_at_idx");
    expect([...orderIndexes].filter((i) => i !== "orders_tenant_id_player_id_created_at_idx" && i !== "orders_pkey")).toEqual([]);
    // The page comes in index order: at most an incremental sort of orders created at the same
    // instant (the id tie-break), never a sort of all the player's orders.
    if (!_.startsWith("summary")) expect(plans.flatMap(nodes).filter((n) => n["Node Type"] === "Sort")).toEqual([]);
  });
});
