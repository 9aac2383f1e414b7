import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { execute, one, rows } from "@/lib/db/sql";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { scopeTenants, searchOrders, type OrderSearch, type OrderSearchResult } from "./search-orders";

useFreshDatabase();

// A few thousand orders in three products. `gamma` holds a copy of `alpha`'s orders (same order
// nos, players and transaction ids) but is outside the staff member's scope: any leak shows up as
// an extra row. Every expected result comes from a plain model of the same rows.

const MINUTE = 60;
const SCOPE = ["alpha", "beta"];
/** Multiples of 5 minutes, like every order's time in state (plus 150 s): no order sits on a boundary. */
const THRESHOLDS: Record<string, Partial<Record<OrderState, number>>> = {
  alpha: { created: 35 * MINUTE, paid: 25 * MINUTE, delivering: 55 * MINUTE, refunding: 4000 * MINUTE },
  gamma: { created: 35 * MINUTE, paid: 25 * MINUTE, delivering: 55 * MINUTE, refunding: 4000 * MINUTE },
  // No delivering threshold: beta's delivering orders are never stuck.
  beta: { created: 20 * MINUTE, paid: 10 * MINUTE, refunding: 2000 * MINUTE },
};
const SIZES: Record<string, number> = { alpha: 1500, beta: 1000, gamma: 1500 };
const PAID_STATES: readonly OrderState[] = ["paid", "delivering", "delivered", "refunding", "refunded"];

interface ModelOrder {
  tenantId: string;
  orderNo: string;
  playerId: string;
  state: OrderState;
  createdAgoMin: number;
  stateAgoMin: number;
  payKey: string | null;
  // From the database:
  id: number;
  createdAt: Date;
}

const model: ModelOrder[] = [];

function generate(): Omit<ModelOrder, "id" | "createdAt">[] {
  const rows: Omit<ModelOrder, "id" | "createdAt">[] = [];
  for (const tenantId of ["alpha", "beta", "gamma"]) {
    for (let i = 1; i <= SIZES[tenantId]!; i++) {
      const state = ORDER_STATES[i % 7]!;
      rows.push({
        tenantId,
        orderNo: `NO${String(i).padStart(6, "0")}`,
        playerId: `P${i % 97}`,
        state,
        // alpha and beta orders share creation instants: the keyset's id tie-break is exercised.
        createdAgoMin: i * 10,
        stateAgoMin: 5 * ((i * 7) % 1200),
        payKey: PAID_STATES.includes(state) ? `TX${String(i).padStart(6, "0")}` : null,
      });
    }
    // One term that is an order no, a player id and a payment transaction id at once.
    const multi = (orderNo: string, playerId: string, payKey: string | null, state: OrderState, createdAgoMin: number) =>
      rows.push({ tenantId, orderNo, playerId, state, createdAgoMin, stateAgoMin: 0, payKey });
    multi("MULTI-1", "someone", null, "created", 7);
    multi("M-B", "MULTI-1", "TX-MB", "paid", 8);
    multi("M-C", "MULTI-1", "TX-MC", "delivered", 9);
    multi("M-D", "other", "MULTI-1", "delivered", 11);
  }
  return rows;
}

beforeAll(async () => {
  const pool = getPool();
  for (const id of ["alpha", "beta", "gamma"]) await ensureTenant(pool, tenantSpec(id, { maxDwellSeconds: THRESHOLDS[id]! }));
  const fixture = generate();
  const inserted = await rows(
    pool,
    z.object({ id: z.number(), tenantId: z.string(), orderNo: z.string(), createdAt: z.coerce.date() }),
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT t, n, p, 600, 'CNY', s, now() - make_interval(mins => sa) - interval '150 seconds',
            now() - make_interval(mins => ca), now()
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) AS x(t, n, p, s, ca, sa)
     RETURNING id, tenant_id AS "tenantId", order_no AS "orderNo", created_at AS "createdAt"`,
    [
      fixture.map((r) => r.tenantId),
      fixture.map((r) => r.orderNo),
      fixture.map((r) => r.playerId),
      fixture.map((r) => r.state),
      fixture.map((r) => r.createdAgoMin),
      fixture.map((r) => r.stateAgoMin),
    ],
  );
  const byKey = new Map(inserted.map((r) => [`${r.tenantId}/${r.orderNo}`, r]));
  for (const row of fixture) {
    const db = byKey.get(`${row.tenantId}/${row.orderNo}`)!;
    model.push({ ...row, id: db.id, createdAt: db.createdAt });
  }
  const paid = model.filter((o) => o.payKey !== null);
  await pool.query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source)
     SELECT t, o, 'pay', 'created', 'paid', k, 'channel:test', 'callback' FROM unnest($1::text[], $2::bigint[], $3::text[]) AS x(t, o, k)`,
    [paid.map((o) => o.tenantId), paid.map((o) => o.id), paid.map((o) => o.payKey)],
  );
  // Only the pay transition's bizKey is a payment transaction id: a refund id matches as a refund.
  const refunding = model.find((o) => o.tenantId === "alpha" && o.state === "refunding")!;
  await pool.query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source)
     VALUES ('alpha', $1, 'request-refund', 'paid', 'refunding', 'RF-NOT-A-PAYMENT', 'channel:test', 'callback')`,
    [refunding.id],
  );
  await pool.query(`ANALYZE orders, order_transitions, tenant_settings`);
});

// ---------------------------------------------------------------------------------------------
// The model

const key = (o: { tenantId: string; orderNo: string }) => `${o.tenantId}/${o.orderNo}`;

function newestFirst(a: ModelOrder, b: ModelOrder): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;
}

function isStuck(o: ModelOrder): boolean {
  const threshold = THRESHOLDS[o.tenantId]![o.state];
  return threshold !== undefined && o.stateAgoMin * MINUTE >= threshold;
}

function expected(search: Omit<OrderSearch, "scope">, bounds: { from?: number; to?: number } = {}): string[] {
  const q = search.q?.trim();
  return model
    .filter((o) => SCOPE.includes(o.tenantId))
    .filter((o) => !q || o.orderNo.toLowerCase() === q.toLowerCase() || o.playerId === q || o.payKey === q)
    .filter((o) => !search.tenantId || o.tenantId === search.tenantId)
    .filter((o) => !search.state || o.state === search.state)
    .filter((o) => bounds.from === undefined || o.createdAt.getTime() >= bounds.from)
    .filter((o) => bounds.to === undefined || o.createdAt.getTime() < bounds.to)
    .filter((o) => !search.stuck || isStuck(o))
    .sort(newestFirst)
    .map(key);
}

/** Every page, following `older` cursors; checks the total and the page links on the way. */
async function walk(search: Omit<OrderSearch, "scope">, limit = 40): Promise<{ keys: string[]; pages: OrderSearchResult[] }> {
  const pages: OrderSearchResult[] = [];
  let page = await searchOrders({ scope: SCOPE, ...search, limit });
  pages.push(page);
  expect(page.newer).toBeNull();
  while (page.older) {
    page = await searchOrders({ scope: SCOPE, ...search, limit, after: page.older });
    pages.push(page);
    expect(page.newer).not.toBeNull();
    expect(pages.length).toBeLessThan(500);
  }
  for (const p of pages) expect(p.total).toEqual(pages[0]!.total);
  const keys = pages.flatMap((p) => p.rows.map(key));
  return { keys, pages };
}

async function expectResults(search: Omit<OrderSearch, "scope">, bounds?: { from?: number; to?: number }): Promise<string[]> {
  const want = expected(search, bounds);
  const { keys, pages } = await walk(search);
  expect(keys).toEqual(want);
  expect(pages[0]!.total).toEqual({ kind: "exact", value: want.length });
  return want;
}

function utcDay(daysAgo: number): { date: string; start: number } {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  const date = d.toISOString().slice(0, 10);
  return { date, start: Date.parse(`${date}T00:00:00Z`) };
}

// ---------------------------------------------------------------------------------------------

describe("searchOrders: one search box, three lookups", () => {
  it("finds an order by its exact order no, in every product in scope", async () => {
    const want = await expectResults({ q: "NO000123" });
    expect(new Set(want)).toEqual(new Set(["alpha/NO000123", "beta/NO000123"]));
  });

  it("finds every order of a player id", async () => {
    const want = await expectResults({ q: "P42" });
    expect(want.length).toBeGreaterThan(20);
    const page = await searchOrders({ scope: SCOPE, q: "P42" });
    expect(page.rows.every((r) => r.matchedBy.join() === "player")).toBe(true);
  });

  it("finds an order by its payment transaction id (the pay transition's bizKey), and a refund's id as a refund", async () => {
    const want = await expectResults({ q: "TX000008" });
    expect(new Set(want)).toEqual(new Set(["alpha/NO000008", "beta/NO000008"]));
    const page = await searchOrders({ scope: SCOPE, q: "TX000008" });
    expect(page.rows.map((r) => r.matchedBy)).toEqual([["payment"], ["payment"]]);
    expect((await searchOrders({ scope: SCOPE, q: "RF-NOT-A-PAYMENT" })).rows.map((r) => r.matchedBy)).toEqual([["refund"]]);
  });

  it("tries all three kinds for one term and says how each order matched", async () => {
    const page = await searchOrders({ scope: SCOPE, q: "  MULTI-1 " });
    expect(page.rows.map(key)).toEqual(expected({ q: "MULTI-1" }));
    const matched = Object.fromEntries(page.rows.map((r) => [key(r), r.matchedBy.join()]));
    expect(matched).toEqual({
      "alpha/MULTI-1": "orderNo",
      "alpha/M-B": "player",
      "alpha/M-C": "player",
      "alpha/M-D": "payment",
      "beta/MULTI-1": "orderNo",
      "beta/M-B": "player",
      "beta/M-C": "player",
      "beta/M-D": "payment",
    });
  });

  it("a search matching exactly one order returns it as a one-row list", async () => {
    const page = await searchOrders({ scope: SCOPE, q: "NO000123", tenantId: "beta" });
    expect(page.rows.map(key)).toEqual(["beta/NO000123"]);
    expect(page.total).toEqual({ kind: "exact", value: 1 });
    expect(page.older).toBeNull();
  });

  it("a term nothing has answers an empty page with a zero total", async () => {
    expect(await searchOrders({ scope: SCOPE, q: "nothing-like-this" })).toEqual({
      rows: [],
      total: { kind: "exact", value: 0 },
      newer: null,
      older: null,
    });
  });

  it("filters apply to search hits too", async () => {
    await expectResults({ q: "P42", state: "delivered" });
    await expectResults({ q: "P42", tenantId: "beta", stuck: true });
    const from = utcDay(5);
    await expectResults({ q: "P41", createdFrom: from.date }, { from: from.start });
  });

  it("pages through a search with keyset cursors", async () => {
    const want = expected({ q: "P7" });
    const { keys, pages } = await walk({ q: "P7" }, 4);
    expect(pages.length).toBeGreaterThan(3);
    expect(keys).toEqual(want);
  });
});

describe("searchOrders: browsing with filters", () => {
  it("everything in scope, newest first, over many pages", async () => {
    const want = expected({});
    const { keys, pages } = await walk({}, 200);
    expect(keys).toEqual(want);
    expect(pages[0]!.total).toEqual({ kind: "exact", value: want.length });
  });

  it("one product, one state", async () => {
    await expectResults({ tenantId: "beta" });
    await expectResults({ state: "refunding" });
    await expectResults({ tenantId: "alpha", state: "closed" });
  });

  it("created range: whole days, both inclusive, in the viewer's time zone", async () => {
    const from = utcDay(4);
    const to = utcDay(2);
    const want = await expectResults({ createdFrom: from.date, createdTo: to.date }, { from: from.start, to: to.start + 86_400_000 });
    expect(want.length).toBeGreaterThan(0);
    // Shanghai is UTC+8 (no daylight saving): its days start 8 hours earlier.
    const shift = 8 * 3_600_000;
    await expectResults(
      { createdFrom: from.date, createdTo: to.date, timeZone: "Asia/Shanghai" },
      { from: from.start - shift, to: to.start + 86_400_000 - shift },
    );
    await expectResults({ createdFrom: from.date, state: "paid" }, { from: from.start });
    await expectResults({ createdTo: to.date, tenantId: "alpha" }, { to: to.start + 86_400_000 });
  });

  it("stuck: longer in its state than the product's threshold for that state", async () => {
    const want = await expectResults({ stuck: true });
    expect(want.length).toBeGreaterThan(0);
    await expectResults({ stuck: true, state: "paid" });
    await expectResults({ stuck: true, tenantId: "beta" });
    // beta has no delivering threshold, and no state after delivery has one anywhere.
    expect((await searchOrders({ scope: SCOPE, stuck: true, tenantId: "beta", state: "delivering" })).rows).toEqual([]);
    expect((await searchOrders({ scope: SCOPE, stuck: true, state: "delivered" })).rows).toEqual([]);
    const page = await searchOrders({ scope: SCOPE, stuck: true });
    expect(page.rows.every((r) => r.stuck && r.maxDwellSeconds !== null && r.secondsInState > r.maxDwellSeconds)).toBe(true);
  });

  it("every filter at once", async () => {
    const from = utcDay(9);
    await expectResults({ tenantId: "alpha", state: "created", stuck: true, createdFrom: from.date }, { from: from.start });
  });

  it("the previous-page link walks back exactly", async () => {
    const { pages } = await walk({ state: "delivered" }, 30);
    expect(pages.length).toBeGreaterThan(3);
    let back = pages.at(-1)!;
    for (let i = pages.length - 2; i >= 0; i--) {
      back = await searchOrders({ scope: SCOPE, state: "delivered", limit: 30, before: back.newer! });
      expect(back.rows.map(key)).toEqual(pages[i]!.rows.map(key));
    }
    expect(back.newer).toBeNull();
  });

  it("past the exact-count limit the total is the planner's estimate, labelled as such", async () => {
    const page = await searchOrders({ scope: SCOPE, exactCountLimit: 100 });
    expect(page.total.kind).not.toBe("exact");
    expect(page.total.value).toBeGreaterThanOrEqual(100);
    // The rows do not change: only the count is estimated.
    expect(page.rows.map(key)).toEqual(expected({}).slice(0, 50));
  });
});

describe("searchOrders: tenant scope", () => {
  it("never returns an order of a tenant outside the scope, whatever is asked", async () => {
    const searches: Omit<OrderSearch, "scope">[] = [
      {},
      { q: "NO000123" },
      { q: "MULTI-1" },
      { q: "TX000008" },
      { q: "P42" },
      { stuck: true },
      { state: "paid" },
    ];
    for (const search of searches) {
      const { keys } = await walk(search, 500);
      expect(keys.filter((k) => !k.startsWith("alpha/") && !k.startsWith("beta/"))).toEqual([]);
    }
  });

  it("offers only the products in scope as filters", async () => {
    expect(await scopeTenants(SCOPE)).toEqual([
      { id: "alpha", name: "alpha" },
      { id: "beta", name: "beta" },
    ]);
    expect(await scopeTenants([])).toEqual([]);
  });

  it("a tenant filter outside the scope, or an empty scope, finds nothing", async () => {
    const empty = { rows: [], total: { kind: "exact", value: 0 }, newer: null, older: null };
    expect(await searchOrders({ scope: SCOPE, tenantId: "gamma" })).toEqual(empty);
    expect(await searchOrders({ scope: SCOPE, tenantId: "gamma", q: "NO000123" })).toEqual(empty);
    expect(await searchOrders({ scope: [], q: "NO000123" })).toEqual(empty);
    expect(await searchOrders({ scope: [] })).toEqual(empty);
  });
});

// ---------------------------------------------------------------------------------------------
// Plans. At a few thousand rows the planner rightly prefers a sequential scan for anything that
// reads a good part of a table, which says nothing about 1,000,000 rows. With enable_seqscan off a
// Seq Scan appears only when no index can serve the statement — that is what this checks, for
// every statement each query shape actually runs.

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

const WATCHED = new Set(["orders", "order_transitions", "order_exceptions"]);

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function plansOf(run: () => Promise<unknown>): Promise<{ sql: string; plan: PlanNode }[]> {
  const pool = getPool();
  const spy = vi.spyOn(pool, "query");
  await run();
  const statements = spy.mock.calls.map(([text, values]) => ({ text: text as unknown as string, values: values as unknown[] }));
  spy.mockRestore();
  const client = await pool.connect();
  try {
    await client.query("SET enable_seqscan = off");
    const plans: { sql: string; plan: PlanNode }[] = [];
    // The estimate is itself an EXPLAIN: it reads no rows.
    for (const { text, values } of statements.filter((s) => !/^\s*EXPLAIN/.test(s.text))) {
      const { "QUERY PLAN": [{ Plan: plan }] } = await one(client, explained, `EXPLAIN (FORMAT JSON) ${text}`, values);
      plans.push({ sql: text, plan });
    }
    return plans;
  } finally {
    await client.query("RESET enable_seqscan");
    client.release();
  }
}

function scansOf(plan: PlanNode): PlanNode[] {
  return nodes(plan).filter((n) => n["Relation Name"] !== undefined && WATCHED.has(n["Relation Name"]));
}

/** The indexes a scan reads: its own, or a bitmap heap scan's bitmap index scans. */
function indexesOf(scan: PlanNode): string[] {
  return nodes(scan).flatMap((n) => (n["Index Name"] ? [n["Index Name"]] : []));
}

/** Whether rows of a watched table reach this node with no LIMIT on the way (a sort here sorts them all). */
function unlimitedScanBelow(node: PlanNode): boolean {
  if (node["Relation Name"] !== undefined && WATCHED.has(node["Relation Name"])) return true;
  if (node["Node Type"] === "Limit") return false;
  return (node.Plans ?? []).some(unlimitedScanBelow);
}

/** One per place an id the console shows is kept (termHits), and the order's own row. */
const SEARCH_INDEXES = new Set([
  "orders_tenant_id_lower_order_no_idx",
  "orders_tenant_id_player_id_created_at_idx",
  "order_transitions_pay_biz_key_idx",
  "order_transitions_refund_biz_key_idx",
  "order_exceptions_tenant_id_biz_key_idx",
  "payment_refunds_tenant_id_refund_id_key",
  "payment_refunds_tenant_id_channel_ref_idx",
  "payment_refunds_tenant_id_payment_txn_idx",
  "store_purchases_pkey",
  "store_purchases_tenant_id_store_original_transaction_id_idx",
  "grants_tenant_id_grant_id_idx",
  "orders_pkey",
]);
const BROWSE_INDEXES = new Set(["orders_tenant_id_state_created_at_id_idx", "orders_tenant_id_state_state_at_idx"]);

const from = () => utcDay(6).date;
const to = () => utcDay(2).date;
const cursor = { createdAt: "2030-01-01T00:00:00.000000Z", id: 1 };
const SHAPES: [string, () => Omit<OrderSearch, "scope">, Set<string>][] = [
  ["search term", () => ({ q: "MULTI-1" }), SEARCH_INDEXES],
  ["search term + every filter + cursor", () => ({ q: "P42", tenantId: "alpha", state: "paid", stuck: true, createdFrom: from(), createdTo: to(), after: cursor }), SEARCH_INDEXES],
  ["browse", () => ({}), BROWSE_INDEXES],
  ["browse, next page", () => ({ after: cursor }), BROWSE_INDEXES],
  ["browse, previous page", () => ({ before: cursor }), BROWSE_INDEXES],
  ["tenant", () => ({ tenantId: "alpha" }), BROWSE_INDEXES],
  ["state", () => ({ state: "delivered" }), BROWSE_INDEXES],
  ["created range", () => ({ createdFrom: from(), createdTo: to() }), BROWSE_INDEXES],
  ["stuck", () => ({ stuck: true }), BROWSE_INDEXES],
  ["stuck + state + tenant", () => ({ stuck: true, state: "paid", tenantId: "beta" }), BROWSE_INDEXES],
  ["every filter + cursor", () => ({ tenantId: "alpha", state: "created", stuck: true, createdFrom: from(), createdTo: to(), after: cursor }), BROWSE_INDEXES],
  ["count past the exact limit", () => ({ exactCountLimit: 10 }), BROWSE_INDEXES],
];

describe("searchOrders: every statement reads through an index", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(SHAPES)("%s", async (_, shape, allowed) => {
    const plans = await plansOf(() => searchOrders({ scope: SCOPE, ...shape() }));
    const scans = plans.flatMap((p) => scansOf(p.plan));
    if (process.env.SHOW_PLANS) console.log(_, JSON.stringify(plans.map((p) => p.plan), null, 1));
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      expect(scan["Node Type"], `${scan["Relation Name"]} read by ${scan["Node Type"]}`).not.toBe("Seq Scan");
      const indexes = indexesOf(scan);
      expect(indexes.length, `${scan["Relation Name"]} read by ${scan["Node Type"]} without an index`).toBeGreaterThan(0);
      for (const index of indexes) expect(allowed, `${scan["Relation Name"]} read through ${index}`).toContain(index);
    }
  });

  it("a search term is index lookups: order no in any case, player id, pay bizKey, refund bizKeys", async () => {
    const plans = await plansOf(() => searchOrders({ scope: SCOPE, q: "MULTI-1" }));
    const used = new Set(plans.flatMap((p) => scansOf(p.plan).flatMap(indexesOf)));
    for (const index of ["orders_tenant_id_lower_order_no_idx", "orders_tenant_id_player_id_created_at_idx", "order_transitions_pay_biz_key_idx", "order_transitions_refund_biz_key_idx"]) {
      expect(used).toContain(index);
    }
  });

  it("with orders (tenant_id, state, created_at, id), a page reads each (tenant, state) range in order: no sort over a whole range", async () => {
    expect(await execute(getPool(), `SELECT 1 FROM pg_indexes WHERE indexname = 'orders_tenant_id_state_created_at_id_idx'`)).toBe(1);
    for (const shape of [{}, { state: "delivered" as const }, { createdFrom: from(), createdTo: to() }, { after: cursor }, { before: cursor }]) {
      const [, page] = await plansOf(() => searchOrders({ scope: SCOPE, ...shape, exactCountLimit: 1_000_000 }));
      const sortsOverOrders = nodes(page!.plan).filter((n) => n["Node Type"].endsWith("Sort") && (n.Plans ?? []).some(unlimitedScanBelow));
      expect(sortsOverOrders).toEqual([]);
    }
  });
});
