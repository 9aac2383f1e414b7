import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { jumpTarget } from "./jump-to-order";
import { searchOrders } from "./search-orders";

useFreshDatabase();

// The header's search: one order in scope → that order; none or several → the list. `mirror` holds
// the same ids as `home` but is outside the caller's scope: any leak would make a single match two
// (or a miss a hit).

const SCOPE = ["home", "near"];

beforeAll(async () => {
  const pool = getPool();
  for (const id of ["home", "near", "mirror"]) await ensureTenant(pool, tenantSpec(id));
  for (const tenantId of ["home", "mirror"]) {
    const paid = await createOrder(pool, { tenantId, orderNo: "J-PAID", playerId: "whale-1", amount: 6_00 });
    await transit({ orderId: paid.id, event: "pay", bizKey: "alipay-2026-0001", amount: 6_00, actor: "channel:alipay", source: "callback" });
    await createOrder(pool, { tenantId, orderNo: "J-OTHER", playerId: "whale-1" });
    const refunded = await createOrder(pool, { tenantId, orderNo: "J-REFUND", playerId: "solo-7", amount: 12_00 });
    await pool.query(
      `INSERT INTO payment_refunds (tenant_id, refund_id, order_id, channel, payment_txn, payment_amount, amount, currency, reason, requested_by)
       VALUES ($1, 'rf-777', $2, 'alipay', 'alipay-2026-0009', 1200, 1200, 'CNY', 'second payment', 'staff:ops@example.com')`,
      [tenantId, refunded.id],
    );
  }
  // The same order no in two products of the caller: two orders, so the list.
  await createOrder(pool, { tenantId: "near", orderNo: "J-OTHER", playerId: "near-1" });
  // Enough other orders (paid, refunded) that the planner prices a scan as what it is.
  await pool.query(
    `WITH o AS (
       INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
       SELECT t, 'F-' || n, 'filler-' || (n % 500), 600, 'CNY', 'paid', now(), now() - n * interval '1 minute', now()
       FROM unnest($1::text[]) t CROSS JOIN generate_series(1, 3000) n
       RETURNING id, tenant_id, order_no
     ), pay AS (
       INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source)
       SELECT tenant_id, id, 'pay', 'created', 'paid', 'txn-' || order_no, 'channel:test', 'callback' FROM o
     )
     INSERT INTO payment_refunds (tenant_id, refund_id, order_id, channel, payment_txn, payment_amount, amount, currency, reason, requested_by)
     SELECT tenant_id, 'rf-' || order_no, id, 'alipay', 'txn-' || order_no, 600, 100, 'CNY', 'filler', 'test' FROM o`,
    [["home", "near", "mirror"]],
  );
  await pool.query(`ANALYZE orders, order_transitions, payment_refunds`);
});

describe("jumpTarget", () => {
  it("goes straight to the one order a pasted payment transaction id, refund id or order no names", async () => {
    expect(await jumpTarget(SCOPE, "alipay-2026-0001")).toEqual({ kind: "order", tenantId: "home", orderNo: "J-PAID" });
    expect(await jumpTarget(SCOPE, "rf-777")).toEqual({ kind: "order", tenantId: "home", orderNo: "J-REFUND" });
    expect(await jumpTarget(SCOPE, "  J-PAID ")).toEqual({ kind: "order", tenantId: "home", orderNo: "J-PAID" });
    // A player with one order is that order.
    expect(await jumpTarget(SCOPE, "solo-7")).toEqual({ kind: "order", tenantId: "home", orderNo: "J-REFUND" });
  });

  it("lists when several orders match, or none, or nothing was typed", async () => {
    expect(await jumpTarget(SCOPE, "whale-1")).toEqual({ kind: "list" });
    expect(await jumpTarget(SCOPE, "J-OTHER")).toEqual({ kind: "list" });
    expect(await jumpTarget(SCOPE, "no-such-thing")).toEqual({ kind: "list" });
    expect(await jumpTarget(SCOPE, "   ")).toEqual({ kind: "list" });
    expect(await jumpTarget([], "J-PAID")).toEqual({ kind: "list" });
  });

  it("never reads outside the caller's products", async () => {
    expect(await jumpTarget(["mirror"], "rf-777")).toEqual({ kind: "order", tenantId: "mirror", orderNo: "J-REFUND" });
    expect(await jumpTarget(["near"], "alipay-2026-0001")).toEqual({ kind: "list" });
    expect(await jumpTarget(["near"], "J-OTHER")).toEqual({ kind: "order", tenantId: "near", orderNo: "J-OTHER" });
  });

  it("the orders list finds a refund id too, and says how it matched", async () => {
    const result = await searchOrders({ scope: SCOPE, q: "rf-777" });
    expect(result.rows.map((r) => [r.tenantId, r.orderNo, r.matchedBy])).toEqual([["home", "J-REFUND", ["refund"]]]);
  });
});

const planRow = z.object({ "QUERY PLAN": z.tuple([z.object({ Plan: z.unknown() })]) });

function scans(node: unknown): { type: string; relation?: string; index?: string }[] {
  const n = node as { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: unknown[] };
  const own = n["Relation Name"] ? [{ type: n["Node Type"], relation: n["Relation Name"], ...(n["Index Name"] ? { index: n["Index Name"] } : {}) }] : [];
  const bitmapIndex = n["Node Type"] === "Bitmap Index Scan" && n["Index Name"] ? [{ type: n["Node Type"], index: n["Index Name"] }] : [];
  return [...own, ...bitmapIndex, ...(n.Plans ?? []).flatMap(scans)];
}

describe("jumpTarget's plan", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is one statement of index lookups: order no, player id, pay bizKey, refund id", async () => {
    const spy = vi.spyOn(getPool(), "query");
    await jumpTarget(SCOPE, "alipay-2026-0001");
    expect(spy).toHaveBeenCalledTimes(1);
    const [text, values] = spy.mock.calls[0] as unknown as [string, unknown[]];
    spy.mockRestore();
    const client = await getPool().connect();
    try {
      // With sequential scans priced out, one appears only where no index can serve the statement.
      await client.query("SET enable_seqscan = off");
      const plan = await one(client, planRow, `EXPLAIN (FORMAT JSON) ${text}`, values);
      const found = scans(plan["QUERY PLAN"][0].Plan);
      expect(found.filter((s) => s.type === "Seq Scan")).toEqual([]);
      const indexes = new Set(found.flatMap((s) => (s.index ? [s.index] : [])));
      if (process.env.SHOW_PLANS) console.log(JSON.stringify(found));
      for (const index of ["orders_tenant_id_order_no_key", "orders_tenant_id_player_id_created_at_idx", "order_transitions_pay_biz_key_idx", "payment_refunds_tenant_id_refund_id_key"]) {
        expect(indexes).toContain(index);
      }
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });
});
