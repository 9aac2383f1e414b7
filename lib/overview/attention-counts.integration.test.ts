import { beforeAll, describe, expect, it } from "vitest";
import { requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { getPool } from "@/lib/db/pool";
import { searchOrders } from "@/lib/orders/queries/search-orders";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { pendingApprovalCounts, stuckCounts } from "./attention-counts";

useFreshDatabase();

// The overview's figures link to the orders list's filters: a stuck count must be the number of
// rows its link shows, by the same thresholds (settings edited by people included).

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("one", { maxDwellSeconds: { created: 600, paid: 300, delivering: "soon" as unknown as number, refunding: 0.5 } }));
  await ensureTenant(pool, tenantSpec("two", { maxDwellSeconds: { paid: 60 } }));
  await ensureTenant(pool, tenantSpec("out", { maxDwellSeconds: { paid: 60 } }));
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT t, t || '-' || n, 'p', 600, 'CNY', (ARRAY['created', 'paid', 'delivering', 'refunding', 'delivered'])[1 + n % 5],
            now() - (n * 37 % 1200) * interval '1 second', now(), now()
     FROM unnest(ARRAY['one', 'two', 'out']) t CROSS JOIN generate_series(1, 400) n`,
  );
  for (const tenantId of ["one", "one", "two", "out"]) {
    const order = await createOrder(pool, { tenantId, amount: 500_00 });
    await requestRefundApproval({ tenantId, orderId: order.id, requestedBy: "staff:agent@example.com", reason: "asked", requestKey: `k-${order.id}` });
  }
});

describe("attention counts", () => {
  it("counts stuck orders per product exactly as the orders list's stuck filter lists them", async () => {
    const counts = await stuckCounts(["one", "two"]);
    expect(Object.keys(counts).sort()).toEqual(["one", "two"]);
    for (const tenantId of ["one", "two"]) {
      const listed = await searchOrders({ scope: ["one", "two"], tenantId, stuck: true });
      expect(listed.total).toEqual({ kind: "exact", value: counts[tenantId]!.count });
      expect(counts[tenantId]!.count).toBeGreaterThan(0);
      expect(counts[tenantId]!.more).toBe(false);
    }
  });

  it("stops at the cap and says there are more", async () => {
    const counts = await stuckCounts(["one"], 5);
    expect(counts.one).toEqual({ count: 5, more: true });
    expect(await stuckCounts([])).toEqual({});
  });

  it("counts pending refund approvals per product in scope", async () => {
    expect(await pendingApprovalCounts(["one", "two"])).toEqual({ one: 2, two: 1 });
    expect(await pendingApprovalCounts([])).toEqual({});
  });
});
