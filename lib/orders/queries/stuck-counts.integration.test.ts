import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { STUCK_STATES } from "@/lib/orders/stuck";
import { loadQueues } from "@/lib/read/queues";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { searchOrders } from "./search-orders";
import { stuckByState, stuckCounts, sumCounts } from "./stuck-counts";

useFreshDatabase();

// "Stuck" is one rule (lib/orders/stuck.ts) behind four figures that link to each other: the
// overview's card and column, the queues' tabs, the dashboard's chart (all stuckCounts) and the
// orders list's stuck filter. They must agree on the same data, limits edited by hand included.

const MIN = 60;

beforeAll(async () => {
  const pool = getPool();
  // Limits as people leave them: a word, a fraction of a second, and one for a state an order
  // never leaves by itself (delivered), which would make every delivered order stuck forever.
  const limits = { created: 10 * MIN, paid: 5 * MIN, delivering: "soon", refunding: 0.5, delivered: MIN } as unknown as Record<string, number>;
  await ensureTenant(pool, tenantSpec("one", { maxDwellSeconds: limits }));
  await ensureTenant(pool, tenantSpec("two", { maxDwellSeconds: { paid: MIN, refunding: 10 * MIN } }));
  await ensureTenant(pool, tenantSpec("out", { maxDwellSeconds: { paid: MIN } }));
  await ensureTenant(pool, tenantSpec("none", { maxDwellSeconds: {} }));
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT t, t || '-' || n, 'p', 600, 'CNY', (ARRAY['created', 'paid', 'delivering', 'refunding', 'delivered'])[1 + n % 5],
            now() - (n * 37 % 1200) * interval '1 second', now(), now()
     FROM unnest(ARRAY['one', 'two', 'out', 'none']) t CROSS JOIN generate_series(1, 400) n`,
  );
});

describe("stuck counts", () => {
  it("count per product and state exactly what the orders list's stuck filter lists", async () => {
    const counts = await stuckCounts(["one", "two", "none"]);
    expect(counts.map((c) => c.tenantId)).toEqual(["none", "one", "two"]);
    for (const product of counts) {
      expect(product.byState.map((s) => s.state)).toEqual([...STUCK_STATES]);
      for (const { state, count, more } of product.byState) {
        const listed = await searchOrders({ scope: ["one", "two", "none"], tenantId: product.tenantId, state, stuck: true });
        expect(listed.total, `${product.tenantId} ${state}`).toEqual({ kind: "exact", value: count });
        expect(more).toBe(false);
      }
      const listed = await searchOrders({ scope: ["one", "two", "none"], tenantId: product.tenantId, stuck: true });
      expect(listed.total).toEqual({ kind: "exact", value: product.total.count });
    }
    const one = counts.find((c) => c.tenantId === "one")!;
    // A word is no limit, nor is a fraction of a second; whole seconds otherwise.
    expect(one.byState.map((s) => s.thresholdSeconds)).toEqual([10 * MIN, 5 * MIN, null, null]);
    expect(one.total.count).toBeGreaterThan(0);
    expect(counts.find((c) => c.tenantId === "none")!.total).toEqual({ count: 0, more: false });
  });

  it("never count a state an order does not leave by itself, though a limit was written for it", async () => {
    // Delivered orders of "one" sit there for up to 20 minutes against a hand-written limit of one.
    const listed = await searchOrders({ scope: ["one"], tenantId: "one", state: "delivered", stuck: true });
    expect(listed.total).toEqual({ kind: "exact", value: 0 });
    const [one] = await stuckCounts(["one"]);
    const listedAll = await searchOrders({ scope: ["one"], stuck: true });
    expect(listedAll.total).toEqual({ kind: "exact", value: one!.total.count });
  });

  it("are the queues' figures: the overview's total is the sum of the queues' tabs, refunding included", async () => {
    const scope = ["one", "two"];
    const counts = await stuckCounts(scope);
    const queues = await loadQueues(scope, { viewer: null });
    const perState = stuckByState(counts);
    for (const state of STUCK_STATES) expect({ count: queues.stuck[state].total, more: queues.stuck[state].more }).toEqual(perState[state]);
    expect(perState.refunding.count).toBeGreaterThan(0);
    expect(sumCounts(STUCK_STATES.map((s) => perState[s])).count).toBe(sumCounts(counts.map((c) => c.total)).count);
  });

  it("stop at the cap and say there are more, per state and added up", async () => {
    const [one] = await stuckCounts(["one"], 5);
    expect(one!.byState.find((s) => s.state === "created")).toMatchObject({ count: 5, more: true });
    expect(one!.total).toEqual({ count: 5, more: true });
    expect(await stuckCounts([])).toEqual([]);
  });
});
