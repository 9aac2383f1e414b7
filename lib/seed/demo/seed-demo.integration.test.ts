import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { grant } from "@/lib/orders/grant";
import { ORDER_STATES, TRANSITIONS, isOrderEvent, isOrderState, type OrderState } from "@/lib/orders/machine";
import { transit } from "@/lib/orders/transit";
import { useFreshDatabase } from "@/lib/test/database";
import { seedDemo, SEEDED_TABLES, type SeedReport } from "./seed-demo";

useFreshDatabase();

const NOW = new Date("2026-12-01T12:00:00Z");
const ORDERS = 2000;
let report: SeedReport;
const progress: [number, number][] = [];

beforeAll(async () => {
  // A chunk size that does not divide the total: the batches' seams are covered too.
  report = await seedDemo(getPool(), {
    orders: ORDERS,
    seed: 7,
    now: NOW,
    chunkSize: 700,
    onProgress: (done, total) => progress.push([done, total]),
  });
});

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await getPool().query(sql, params)).rows as T[];
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return row!.n;
}

/** Invariants that must hold for any amount of seeded data; each query returns the violations. */
const GRANTED = `(SELECT tenant_id, order_id, sku, sum(quantity) AS granted FROM grants GROUP BY 1, 2, 3)`;
const INVARIANTS: Record<string, string> = {
  "version is the number of transitions, state_at the last one's time, state its target": `
    SELECT o.id FROM orders o
    LEFT JOIN (SELECT DISTINCT ON (order_id) order_id, to_state AS last_to, created_at AS last_at,
        count(*) OVER (PARTITION BY order_id) AS n
      FROM order_transitions ORDER BY order_id, id DESC) t ON t.order_id = o.id
    WHERE o.version <> coalesce(t.n, 0) OR o.state_at <> coalesce(t.last_at, o.created_at)
      OR o.state <> coalesce(t.last_to, 'created') OR o.updated_at <> o.state_at`,
  "each transition starts where the previous one ended, later in time": `
    SELECT id FROM (
      SELECT t.id, t.from_state, t.created_at, o.created_at AS order_created,
        lag(t.to_state) OVER w AS prev_to, lag(t.created_at) OVER w AS prev_at
      FROM order_transitions t JOIN orders o ON o.id = t.order_id
      WINDOW w AS (PARTITION BY t.order_id ORDER BY t.id)) x
    WHERE from_state <> coalesce(prev_to, 'created') OR created_at < coalesce(prev_at, order_created)`,
  "reject-refund returns to the state the refund was requested from": `
    SELECT id FROM (
      SELECT t.id, t.event, t.to_state,
        (array_agg(t.from_state) FILTER (WHERE t.event = 'request-refund') OVER w)[count(*) FILTER (WHERE t.event = 'request-refund') OVER w] AS refund_from
      FROM order_transitions t
      WINDOW w AS (PARTITION BY t.order_id ORDER BY t.id)) x
    WHERE event = 'reject-refund' AND to_state IS DISTINCT FROM refund_from`,
  "no line is ever granted more than its quantity or less than zero, even part way": `
    SELECT 1 FROM (
      SELECT l.quantity, sum(g.quantity) OVER (PARTITION BY g.order_id, g.sku ORDER BY g.created_at, g.id) AS running
      FROM grants g JOIN order_lines l ON l.tenant_id = g.tenant_id AND l.order_id = g.order_id AND l.sku = g.sku) x
    WHERE running < 0 OR running > quantity`,
  "positive grants happen while the order is delivering, reversals at confirm-refund": `
    SELECT g.id FROM grants g
    LEFT JOIN LATERAL (SELECT t.event, t.to_state, t.created_at FROM order_transitions t
      WHERE t.tenant_id = g.tenant_id AND t.order_id = g.order_id AND t.created_at <= g.created_at
      ORDER BY t.created_at DESC, t.id DESC LIMIT 1) t ON true
    WHERE (g.quantity > 0 AND t.to_state IS DISTINCT FROM 'delivering')
       OR (g.quantity < 0 AND (t.event IS DISTINCT FROM 'confirm-refund' OR t.created_at <> g.created_at))`,
  "delivered orders have every line fully granted, refunded ones every line back to zero": `
    SELECT l.id FROM order_lines l JOIN orders o ON o.id = l.order_id
    LEFT JOIN ${GRANTED} g ON g.tenant_id = l.tenant_id AND g.order_id = l.order_id AND g.sku = l.sku
    WHERE (o.state = 'delivered' AND coalesce(g.granted, 0) <> l.quantity)
       OR (o.state = 'refunded' AND coalesce(g.granted, 0) <> 0)`,
  "delivering orders have something pending": `
    SELECT o.id FROM orders o WHERE o.state = 'delivering' AND NOT EXISTS (
      SELECT 1 FROM order_lines l LEFT JOIN ${GRANTED} g ON g.tenant_id = l.tenant_id AND g.order_id = l.order_id AND g.sku = l.sku
      WHERE l.order_id = o.id AND l.quantity > coalesce(g.granted, 0))`,
  "refund reversals carry the confirm-refund's bizKey": `
    SELECT g.id FROM grants g
    LEFT JOIN order_transitions t ON t.tenant_id = g.tenant_id AND t.order_id = g.order_id AND t.event = 'confirm-refund'
    WHERE g.quantity < 0 AND g.grant_id IS DISTINCT FROM 'refund:' || t.biz_key`,
  "every reversal has its take-back row, with the same units, and nothing else has one": `
    SELECT coalesce(g.id, k.id) FROM (SELECT * FROM grants WHERE quantity < 0) g
    FULL JOIN take_backs k ON k.tenant_id = g.tenant_id AND k.order_id = g.order_id AND k.sku = g.sku AND k.grant_id = g.grant_id
    WHERE g.id IS NULL OR k.id IS NULL OR k.units <> g.quantity`,
  "orders never delivered have no grants": `
    SELECT g.id FROM grants g WHERE NOT EXISTS (SELECT 1 FROM order_transitions t
      WHERE t.tenant_id = g.tenant_id AND t.order_id = g.order_id AND t.event = 'begin-delivery')`,
  "a pay biz_key finds exactly one order": `
    SELECT tenant_id, biz_key FROM order_transitions WHERE event = 'pay' GROUP BY 1, 2 HAVING count(*) > 1`,
};

async function expectInvariants(): Promise<void> {
  for (const [name, sql] of Object.entries(INVARIANTS)) {
    expect({ name, violations: await count(sql) }).toEqual({ name, violations: 0 });
  }
  // Every (from, event, to) is a cell of the state table; reject-refund's "previous" is checked above.
  const edges = await rows<{ from_state: string; event: string; to_state: string }>(
    `SELECT DISTINCT from_state, event, to_state FROM order_transitions`,
  );
  for (const e of edges) {
    if (!isOrderState(e.from_state) || !isOrderEvent(e.event) || !isOrderState(e.to_state)) throw new Error(JSON.stringify(e));
    const edge = TRANSITIONS[e.from_state][e.event];
    expect(edge, `${e.from_state} --${e.event}--> ${e.to_state}`).toBeDefined();
    if (edge!.to !== "previous") expect(e.to_state).toBe(edge!.to);
  }
}

describe("seedDemo: 2,000 orders", () => {
  it("reports what it wrote, table by table, and progress per chunk", async () => {
    for (const table of SEEDED_TABLES) {
      expect({ table, n: await count(`SELECT 1 FROM ${table}`) }).toEqual({ table, n: report.rows[table] });
    }
    expect(report.rows.orders).toBe(ORDERS);
    expect(progress).toEqual([
      [700, ORDERS],
      [1400, ORDERS],
      [2000, ORDERS],
    ]);
    const byState = await rows<{ state: OrderState; n: number }>(`SELECT state, count(*)::int AS n FROM orders GROUP BY 1`);
    expect(Object.fromEntries(byState.map((r) => [r.state, r.n]))).toEqual(report.states);
    expect(report.orderIds).toEqual({ first: 1, last: ORDERS });
  });

  it("has every state, about 75/25 between the tenants, and more than 5 transitions per order", async () => {
    for (const state of ORDER_STATES) expect({ state, n: report.states[state] > 0 }).toEqual({ state, n: true });
    expect(report.tenants.xiaoxiao / ORDERS).toBeGreaterThan(0.7);
    expect(report.tenants.xiaoxiao / ORDERS).toBeLessThan(0.8);
    expect(report.rows.order_transitions / ORDERS).toBeGreaterThan(5);
  });

  it("keeps every invariant of the state table and the grants ledger", async () => {
    await expectInvariants();
  });

  it("prices like seed 000: integer fen, xiaoxiao about ¥14.5, fangzhou about ¥182 with ¥128 the main tier", async () => {
    const avg = await rows<{ tenant_id: string; avg: number; main: number }>(
      `SELECT tenant_id, avg(amount)::float8 AS avg, mode() WITHIN GROUP (ORDER BY amount) AS main FROM orders GROUP BY 1`,
    );
    const byTenant = Object.fromEntries(avg.map((r) => [r.tenant_id, r]));
    expect(byTenant.xiaoxiao!.avg).toBeGreaterThan(13_00);
    expect(byTenant.xiaoxiao!.avg).toBeLessThan(16_00);
    expect(byTenant.fangzhou!.avg).toBeGreaterThan(160_00);
    expect(byTenant.fangzhou!.avg).toBeLessThan(205_00);
    expect(byTenant.fangzhou!.main).toBe(128_00);
    expect(await count(`SELECT 1 FROM orders WHERE order_no !~ '^(XX|FZ)20[0-9]{6}[0-9]{10}$'`)).toBe(0);
    // Multi-line orders, and players with several orders.
    expect(await count(`SELECT order_id FROM order_lines GROUP BY 1 HAVING count(*) >= 3`)).toBeGreaterThan(50);
    expect(await count(`SELECT player_id FROM orders GROUP BY tenant_id, player_id HAVING count(*) >= 3`)).toBeGreaterThan(50);
  });

  it("spreads over the last 90 days and never into the future", async () => {
    const [span] = await rows<{ oldest: Date; newest: Date }>(
      `SELECT min(created_at) AS oldest, greatest(max(state_at), (SELECT max(created_at) FROM grants),
         (SELECT max(coalesce(resolved_at, created_at)) FROM order_exceptions)) AS newest FROM orders`,
    );
    const day = 86_400_000;
    expect(NOW.getTime() - span!.oldest.getTime()).toBeGreaterThan(80 * day);
    expect(NOW.getTime() - span!.oldest.getTime()).toBeLessThan(90 * day);
    expect(span!.newest.getTime()).toBeLessThanOrEqual(NOW.getTime());
  });

  it("has stuck orders in each tenant, past that tenant's own thresholds", async () => {
    const stuck = await rows<{ tenant_id: string; state: string; n: number }>(
      `SELECT o.tenant_id, o.state, count(*)::int AS n FROM orders o JOIN tenant_settings s ON s.tenant_id = o.tenant_id
       WHERE s.max_dwell_seconds ? o.state AND o.state_at < $1::timestamptz - make_interval(secs => (s.max_dwell_seconds->>o.state)::int)
       GROUP BY 1, 2`,
      [NOW],
    );
    for (const tenant of ["xiaoxiao", "fangzhou"]) {
      const states = stuck.filter((s) => s.tenant_id === tenant).map((s) => s.state);
      expect(states.sort()).toEqual(["created", "delivering", "paid", "refunding"]);
    }
  });

  it("files exceptions of several kinds, some resolved", async () => {
    const kinds = await rows<{ kind: string }>(`SELECT DISTINCT kind FROM order_exceptions ORDER BY 1`);
    expect(kinds.map((k) => k.kind)).toEqual([
      "amount-mismatch",
      "delivery-failed",
      "delivery-incomplete",
      "payment-after-close",
      "payment-after-refund",
      "second-payment",
    ]);
    expect(await count(`SELECT 1 FROM order_exceptions WHERE status = 'resolved' AND resolved_by IS NOT NULL`)).toBeGreaterThan(0);
    // Each exception belongs to an order in a state that explains it.
    expect(
      await count(`SELECT 1 FROM order_exceptions e JOIN orders o ON o.id = e.order_id
        WHERE (e.kind = 'payment-after-close' AND o.state <> 'closed')
           OR (e.kind = 'payment-after-refund' AND o.state <> 'refunded')
           OR (e.kind IN ('delivery-incomplete', 'delivery-failed') AND o.state <> 'delivering')`),
    ).toBe(0);
  });

  it("seeds cases in every state, each with what its state needs, and refunds that match them", async () => {
    const statuses = await rows<{ status: string }>(`SELECT DISTINCT status FROM order_exceptions ORDER BY 1`);
    expect(statuses.map((r) => r.status)).toEqual(["dismissed", "in-progress", "open", "resolved"]);
    // Owners where someone works or worked the case; reasons where a person closed it; due times everywhere.
    expect(await count(`SELECT 1 FROM order_exceptions WHERE status = 'in-progress' AND (owner IS NULL OR taken_at IS NULL)`)).toBe(0);
    expect(await count(`SELECT 1 FROM order_exceptions WHERE status = 'dismissed' AND (resolved_reason IS NULL OR resolved_by IS NULL)`)).toBe(0);
    expect(await count(`SELECT 1 FROM order_exceptions WHERE status = 'open' AND owner IS NOT NULL`)).toBe(0);
    expect(await count(`SELECT 1 FROM order_exceptions WHERE sla_due_at <= created_at`)).toBe(0);
    expect(await count(`SELECT 1 FROM order_exceptions WHERE status IN ('open', 'in-progress') AND sla_due_at < now()`)).toBeGreaterThan(0);
    // Resolved by a refund: a confirmed refund of the whole payment; a refund the channel failed: back with its owner.
    expect(
      await count(`SELECT 1 FROM order_exceptions e WHERE e.resolution = 'refund' AND NOT EXISTS (
        SELECT 1 FROM payment_refunds r WHERE r.case_id = e.id AND r.amount = e.amount
          AND r.status = CASE WHEN e.status = 'resolved' THEN 'confirmed' ELSE 'failed' END)`),
    ).toBe(0);
    expect(await count(`SELECT 1 FROM payment_refunds WHERE status = 'confirmed'`)).toBeGreaterThan(0);
    expect(await count(`SELECT 1 FROM payment_refunds WHERE status = 'failed'`)).toBeGreaterThan(0);
    expect(
      await count(`SELECT payment_txn FROM payment_refunds WHERE status <> 'failed' GROUP BY tenant_id, payment_txn HAVING sum(amount) > min(payment_amount)`),
    ).toBe(0);
  });

  it("has histories by many actors through every source", async () => {
    const sources = await rows<{ source: string }>(`SELECT DISTINCT source FROM order_transitions ORDER BY 1`);
    expect(sources.map((s) => s.source)).toEqual(["api", "callback", "console", "job"]);
    const actors = await rows<{ actor: string }>(`SELECT DISTINCT actor FROM order_transitions ORDER BY 1`);
    expect(actors.map((a) => a.actor)).toEqual([
      "channel:alipay",
      "channel:wechat",
      "game:xiaoxiao-server",
      "staff:agent@example.com",
      "staff:ops@example.com",
      "system:delivery",
      "system:timeout-close",
    ]);
    expect(
      await count(`SELECT 1 FROM order_transitions WHERE event = 'close' AND actor = 'system:timeout-close'
        AND (biz_key <> 'timeout' OR source <> 'job')`),
    ).toBe(0);
    // An agent's refund request above the tenant's approval amount would need a manager: none are seeded.
    expect(
      await count(`SELECT 1 FROM order_transitions t JOIN orders o ON o.id = t.order_id
        JOIN tenant_settings s ON s.tenant_id = t.tenant_id
        WHERE t.event = 'request-refund' AND t.actor = 'staff:agent@example.com' AND o.amount > s.refund_approval_amount`),
    ).toBe(0);
    expect(await count(`SELECT 1 FROM order_transitions WHERE event = 'request-refund' AND actor = 'staff:agent@example.com'`)).toBeGreaterThan(0);
  });

  it("finds an order by its payment transaction id, and the real callback arriving again is a duplicate", async () => {
    const [pay] = await rows<{ tenant_id: string; order_id: number; biz_key: string; amount: number }>(
      `SELECT t.tenant_id, t.order_id, t.biz_key, o.amount FROM order_transitions t JOIN orders o ON o.id = t.order_id
       WHERE t.event = 'pay' AND t.source = 'callback' ORDER BY t.id DESC LIMIT 1`,
    );
    expect(pay!.biz_key).toMatch(/^(alipay|wechat)-20\d{12}\d{10}$/);
    const found = await rows<{ order_id: number }>(
      `SELECT order_id FROM order_transitions WHERE tenant_id = $1 AND event = 'pay' AND biz_key = $2`,
      [pay!.tenant_id, pay!.biz_key],
    );
    expect(found).toEqual([{ order_id: pay!.order_id }]);
    const again = await transit({
      orderId: pay!.order_id,
      event: "pay",
      bizKey: pay!.biz_key,
      amount: pay!.amount,
      actor: "channel:alipay",
      source: "callback",
    });
    expect(again.result).toBe("duplicate");
  });

  it("seeds again without failing: a new batch, same shapes under new numbers; typical history is shallower", async () => {
    const again = await seedDemo(getPool(), { orders: 300, seed: 7, now: NOW });
    expect(again.orderIds).toEqual({ first: ORDERS + 1, last: ORDERS + 300 });
    // Order i of the second run is order i of the first: same tenant, amount, story and times. (Players
    // come from a pool sized by the run, so they differ between runs of different sizes.)
    expect(
      await count(
        `SELECT 1 FROM orders a JOIN orders b ON b.id = a.id + $1
         WHERE a.id <= 300 AND (a.tenant_id, a.amount, a.created_at, a.state, a.version)
           IS DISTINCT FROM (b.tenant_id, b.amount, b.created_at, b.state, b.version)`,
        [ORDERS],
      ),
    ).toBe(0);

    const typical = await seedDemo(getPool(), { orders: 1000, seed: 8, now: NOW, history: "typical" });
    expect(typical.rows.order_transitions / 1000).toBeLessThan(3.5);
    expect(typical.states.delivered / 1000).toBeGreaterThan(0.75);
    await expectInvariants();
  });
  it("leaves orders the real transit() and grant() can carry on with", async () => {
    const pick = async (state: OrderState, extra = "") => {
      const [row] = await rows<{ id: number }>(`SELECT id FROM orders WHERE state = $1 ${extra} ORDER BY id LIMIT 1`, [state]);
      return row!.id;
    };
    const actor = "staff:ops@example.com";
    // A refund in flight: the channel confirms it; transit reverses what was granted.
    const refunding = await pick("refunding", "AND EXISTS (SELECT 1 FROM grants g WHERE g.order_id = orders.id)");
    const refunded = await transit({ orderId: refunding, event: "confirm-refund", bizKey: `RF-test-${refunding}`, actor, source: "console", reason: "test" });
    expect(refunded.result).toBe("applied");
    expect(await count(`SELECT 1 FROM order_lines l WHERE l.order_id = $1
      AND (SELECT sum(quantity) FROM grants g WHERE g.order_id = l.order_id AND g.sku = l.sku) <> 0`, [refunding])).toBe(0);
    // A refund the channel refuses goes back to where it came from.
    const disputed = await pick("refunding");
    const rejected = await transit({ orderId: disputed, event: "reject-refund", bizKey: `RF-test-${disputed}`, actor, source: "console", reason: "test" });
    expect(rejected.result).toBe("applied");
    // A stalled delivery: grant what is pending, then confirm.
    const delivering = await pick("delivering");
    const pending = await rows<{ sku: string; pending: number }>(
      `SELECT l.sku, l.quantity - coalesce((SELECT sum(quantity) FROM grants g WHERE g.order_id = l.order_id AND g.sku = l.sku), 0)::int AS pending
       FROM order_lines l WHERE l.order_id = $1`,
      [delivering],
    );
    for (const line of pending.filter((l) => l.pending > 0)) {
      const granted = await grant({ orderId: delivering, sku: line.sku, quantity: line.pending, grantId: "repair-test", actor, source: "console" });
      expect(granted.result).toBe("applied");
    }
    const confirmed = await transit({ orderId: delivering, event: "confirm-delivery", bizKey: "repair-test", actor, source: "console", reason: "test" });
    expect(confirmed.result).toBe("applied");
    await expectInvariants();
  });
});
