import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { applyRefundEvent } from "@/lib/cases/refund-event";
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
     ), granted AS (
       INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor)
       SELECT tenant_id, id, 'gems-60', 'g-' || order_no, 60, 'api', 'game:server' FROM o
     )
     INSERT INTO payment_refunds (tenant_id, refund_id, order_id, channel, payment_txn, payment_amount, amount, currency, reason, requested_by)
     SELECT tenant_id, 'rf-' || order_no, id, 'alipay', 'txn-' || order_no, 600, 100, 'CNY', 'filler', 'test' FROM o`,
    [["home", "near", "mirror"]],
  );
  await pool.query(`ANALYZE orders, order_transitions, payment_refunds, grants`);
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

// Issue 29: staff paste whatever id the console showed them. Each of these lives somewhere other
// than the order's row or its pay transition, and each named no order before. Made in `home` and,
// with the same ids, in `mirror` (outside the caller's scope): one order each, never two.
describe("jumpTarget finds every id the console shows", () => {
  const channel = { actor: "channel:wechat", source: "callback" } as const;
  const ops = { actor: "staff:ops@example.com", source: "console", reason: "checked with the channel" } as const;
  const applied = (r: { result: string }) => expect(r.result).toBe("applied");

  beforeAll(async () => {
    const pool = getPool();
    for (const tenantId of ["home", "mirror"]) {
      // A second payment: the ledger kept the first, the second is only on its case.
      const twice = await createOrder(pool, { tenantId, orderNo: "K-TWICE", amount: 6_00 });
      applied(await transit({ orderId: twice.id, event: "pay", bizKey: "wx-first-0001", amount: 6_00, ...channel }));
      expect((await transit({ orderId: twice.id, event: "pay", bizKey: "wx-second-0002", amount: 6_00, ...channel })).result).toBe("illegal");
      // The case's refund of that second payment, confirmed by the channel with its own reference.
      await pool.query(
        `INSERT INTO payment_refunds (tenant_id, refund_id, order_id, channel, payment_txn, payment_amount, amount, currency, reason, requested_by)
         VALUES ($1, 'rf-second-0002', $2, 'wechat', 'wx-second-0002', 600, 600, 'CNY', 'second payment', 'staff:ops@example.com')`,
        [tenantId, twice.id],
      );
      expect((await applyRefundEvent({ tenantId, refundId: "rf-second-0002", event: "confirm", bizKey: "WXREF-77001", actor: "channel:wechat" })).result).toBe("applied");

      // A refund confirmed by ops with the channel's receipt typed in; another the channel refused.
      const refunded = await createOrder(pool, { tenantId, orderNo: "K-REFUNDED", amount: 6_00, lines: [{ sku: "skin-1", kind: "cosmetic", quantity: 1 }] });
      applied(await transit({ orderId: refunded.id, event: "pay", bizKey: "wx-pay-0003", amount: 6_00, ...channel }));
      applied(await transit({ orderId: refunded.id, event: "request-refund", bizKey: "console:req-0003", ...ops }));
      applied(await transit({ orderId: refunded.id, event: "confirm-refund", bizKey: "WX-RF-20261205-0003", ...ops }));
      const refused = await createOrder(pool, { tenantId, orderNo: "K-REFUSED", amount: 6_00 });
      applied(await transit({ orderId: refused.id, event: "pay", bizKey: "wx-pay-0004", amount: 6_00, ...channel }));
      applied(await transit({ orderId: refused.id, event: "request-refund", bizKey: "console:req-0004", ...ops }));
      applied(await transit({ orderId: refused.id, event: "reject-refund", bizKey: "WX-RJ-20261205-0004", ...channel }));

      // Store orders: the App Store's transaction ids, Google Play's order id and purchase token.
      const apple = await createOrder(pool, { tenantId, orderNo: "K-APPLE", amount: 6_00 });
      const google = await createOrder(pool, { tenantId, orderNo: "K-GOOGLE", amount: 6_00 });
      await pool.query(
        `INSERT INTO store_purchases (tenant_id, store, transaction_id, original_transaction_id, order_id)
         VALUES ($1, 'appstore', '2000000877001', '1000000877001', $2), ($1, 'googleplay', 'GPA.3391-2277-0055-12345', 'tok-google-0055', $3)`,
        [tenantId, apple.id, google.id],
      );

      // A grant id the game server sent, shown on the order's lines.
      const granted = await createOrder(pool, { tenantId, orderNo: "K-GRANTED", amount: 6_00 });
      applied(await transit({ orderId: granted.id, event: "pay", bizKey: "wx-pay-0006", amount: 6_00, ...channel }));
      applied(await grant({ orderId: granted.id, sku: "gems-60", quantity: 60, grantId: "srv-grant-0006", actor: "game:server", source: "api" }));
    }
  });

  const home = (orderNo: string) => ({ kind: "order", tenantId: "home", orderNo });

  it("the transaction id of a second payment, the one its case is about", async () => {
    expect(await jumpTarget(SCOPE, "wx-second-0002")).toEqual(home("K-TWICE"));
  });

  it("a refund receipt: the one typed on confirm-refund, and the channel's on reject-refund the order page shows", async () => {
    expect(await jumpTarget(SCOPE, "WX-RF-20261205-0003")).toEqual(home("K-REFUNDED"));
    expect(await jumpTarget(SCOPE, "WX-RJ-20261205-0004")).toEqual(home("K-REFUSED"));
  });

  it("a channel refund's id and the channel's reference for it", async () => {
    expect(await jumpTarget(SCOPE, "rf-second-0002")).toEqual(home("K-TWICE"));
    expect(await jumpTarget(SCOPE, "WXREF-77001")).toEqual(home("K-TWICE"));
  });

  it("an order no in any letter case", async () => {
    expect(await jumpTarget(SCOPE, "j-paid")).toEqual(home("J-PAID"));
    expect(await jumpTarget(SCOPE, "k-Refunded")).toEqual(home("K-REFUNDED"));
  });

  it("store transaction ids and order ids, and grant ids", async () => {
    expect(await jumpTarget(SCOPE, "2000000877001")).toEqual(home("K-APPLE"));
    expect(await jumpTarget(SCOPE, "1000000877001")).toEqual(home("K-APPLE"));
    expect(await jumpTarget(SCOPE, "GPA.3391-2277-0055-12345")).toEqual(home("K-GOOGLE"));
    expect(await jumpTarget(SCOPE, "tok-google-0055")).toEqual(home("K-GOOGLE"));
    expect(await jumpTarget(SCOPE, "srv-grant-0006")).toEqual(home("K-GRANTED"));
  });

  it("only in the caller's products", async () => {
    expect(await jumpTarget(["mirror"], "WXREF-77001")).toEqual({ kind: "order", tenantId: "mirror", orderNo: "K-TWICE" });
    expect(await jumpTarget(["near"], "wx-second-0002")).toEqual({ kind: "list" });
    expect(await jumpTarget(["near"], "srv-grant-0006")).toEqual({ kind: "list" });
  });

  it("the orders list says how each matched", async () => {
    const matched = async (q: string) => (await searchOrders({ scope: SCOPE, q })).rows.map((r) => [r.orderNo, r.matchedBy]);
    // The second payment's id is on its case and on the refund of it.
    expect(await matched("wx-second-0002")).toEqual([["K-TWICE", ["payment"]]]);
    expect(await matched("WXREF-77001")).toEqual([["K-TWICE", ["receipt"]]]);
    expect(await matched("WX-RJ-20261205-0004")).toEqual([["K-REFUSED", ["receipt"]]]);
    expect(await matched("k-granted")).toEqual([["K-GRANTED", ["orderNo"]]]);
    expect(await matched("tok-google-0055")).toEqual([["K-GOOGLE", ["store"]]]);
    expect(await matched("srv-grant-0006")).toEqual([["K-GRANTED", ["grant"]]]);
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

  it("is one statement of index lookups, one for each place an id the console shows is kept", async () => {
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
      for (const index of [
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
      ]) {
        expect(indexes).toContain(index);
      }
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });
});
