import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { grant } from "./grant";
import { transit, type TransitInput } from "./transit";

useFreshDatabase();

const TENANT = "race";
const pay = (orderId: number, amount: number, bizKey = "txn-1"): TransitInput => ({
  orderId,
  event: "pay",
  bizKey,
  amount,
  actor: "channel:alipay",
  source: "callback",
});

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return rows[0]!.n;
}

describe("transit: races on a real PostgreSQL", () => {
  it("200 concurrent identical pay calls: 1 applied, 199 duplicate, one row of each kind", async () => {
    const order = await createOrder(getPool(), { tenantId: TENANT, amount: 648_00 });

    const settled = await Promise.allSettled(Array.from({ length: 200 }, () => transit(pay(order.id, 648_00))));

    const errors = settled.filter((s) => s.status === "rejected");
    expect(errors).toEqual([]);
    const results = settled.map((s) => (s.status === "fulfilled" ? s.value.result : "error"));
    expect(results.filter((r) => r === "applied")).toHaveLength(1);
    expect(results.filter((r) => r === "duplicate")).toHaveLength(199);

    expect(await count(`SELECT 1 FROM order_transitions WHERE order_id = $1`, [order.id])).toBe(1);
    expect(await count(`SELECT 1 FROM outbox_messages WHERE order_id = $1`, [order.id])).toBe(1);
    const { rows } = await getPool().query(`SELECT state, version FROM orders WHERE id = $1`, [order.id]);
    expect(rows[0]).toEqual({ state: "paid", version: order.version + 1 });
  });

  it("pay racing a timeout close sent with expectedState created: exactly one wins on each of 200 orders", async () => {
    const orders = await Promise.all(Array.from({ length: 200 }, () => createOrder(getPool(), { tenantId: TENANT, amount: 6_00 })));

    const outcomes = await Promise.all(
      orders.map(async (order) => {
        const [paid, closed] = await Promise.all([
          transit(pay(order.id, 6_00, `txn-${order.id}`)),
          transit({
            orderId: order.id,
            event: "close",
            bizKey: "timeout",
            expectedState: "created",
            actor: "system:timeout-close",
            source: "job",
          }),
        ]);
        return { paid: paid.result, closed: closed.result };
      }),
    );

    for (const { paid, closed } of outcomes) {
      expect([paid, closed].filter((r) => r === "applied")).toHaveLength(1);
      // The loser saw the winner's state: a close after pay is stale, a pay after close is illegal.
      if (paid === "applied") expect(closed).toBe("stale");
      else expect(paid).toBe("illegal");
    }
    const ids = orders.map((o) => o.id);
    expect(await count(`SELECT 1 FROM order_transitions WHERE order_id = ANY($1)`, [ids])).toBe(200);
    const paidWins = outcomes.filter((o) => o.paid === "applied").length;
    // Every pay that lost to the close is money on a closed order: one exception each, for ops.
    expect(await count(`SELECT 1 FROM order_exceptions WHERE order_id = ANY($1) AND kind = 'payment-after-close'`, [ids])).toBe(
      200 - paidWins,
    );
  });

  it("50 concurrent grants of 1 on a line of 10: 10 applied, 40 over-delivery, ledger sum 10", async () => {
    const order = await createOrder(getPool(), {
      tenantId: TENANT,
      lines: [{ sku: "gems-10", kind: "currency", quantity: 10 }],
    });
    expect((await transit(pay(order.id, order.amount))).result).toBe("applied");

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        grant({ orderId: order.id, sku: "gems-10", quantity: 1, grantId: `g-${i}`, actor: "game:server", source: "api" }),
      ),
    );

    expect(results.filter((r) => r.result === "applied")).toHaveLength(10);
    expect(results.filter((r) => r.result === "over-delivery")).toHaveLength(40);
    const { rows } = await getPool().query(`SELECT sum(quantity)::int AS total, count(*)::int AS n FROM grants WHERE order_id = $1`, [
      order.id,
    ]);
    expect(rows[0]).toEqual({ total: 10, n: 10 });
  });
});

describe("transit: idempotency and staleness", () => {
  it("an expectedVersion older than the order's is stale and writes nothing", async () => {
    const order = await createOrder(getPool(), { tenantId: TENANT });
    expect((await transit(pay(order.id, order.amount))).result).toBe("applied");

    const result = await transit({
      orderId: order.id,
      event: "request-refund",
      bizKey: "form-1",
      actor: "staff:agent@example.com",
      source: "console",
      reason: "player asked",
      expectedVersion: order.version,
    });

    expect(result.result).toBe("stale");
    expect(await count(`SELECT 1 FROM order_transitions WHERE order_id = $1`, [order.id])).toBe(1);
    expect(await count(`SELECT 1 FROM outbox_messages WHERE order_id = $1`, [order.id])).toBe(1);
    const { rows } = await getPool().query(`SELECT state, version FROM orders WHERE id = $1`, [order.id]);
    expect(rows[0]).toEqual({ state: "paid", version: order.version + 1 });
  });

  it("the same pay after the order moved on to delivering is a duplicate, not illegal", async () => {
    const order = await createOrder(getPool(), { tenantId: TENANT });
    const first = await transit(pay(order.id, order.amount, "txn-late"));
    expect(first.result).toBe("applied");
    const begun = await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", actor: "game", source: "api" });
    expect(begun.result).toBe("applied");

    const replay = await transit(pay(order.id, order.amount, "txn-late"));

    expect(replay.result).toBe("duplicate");
    if (replay.result !== "duplicate" || first.result !== "applied") throw new Error("unreachable");
    expect(replay.transition.id).toBe(first.transition.id);
    expect(replay.order.state).toBe("delivering");
    expect(await count(`SELECT 1 FROM order_exceptions WHERE order_id = $1`, [order.id])).toBe(0);
  });

  it("a replayed grantId is a duplicate and returns the original grant", async () => {
    const order = await createOrder(getPool(), { tenantId: TENANT, lines: [{ sku: "skin-1", kind: "cosmetic", quantity: 1 }] });
    await transit(pay(order.id, order.amount));
    const input = { orderId: order.id, sku: "skin-1", quantity: 1, grantId: "grant-a", actor: "game", source: "api" } as const;

    const first = await grant(input);
    const replay = await grant(input);

    expect(first.result).toBe("applied");
    expect(replay.result).toBe("duplicate");
    if (first.result !== "applied" || replay.result !== "duplicate") throw new Error("unreachable");
    expect(replay.grant.id).toBe(first.grant.id);
    expect(await count(`SELECT 1 FROM grants WHERE order_id = $1`, [order.id])).toBe(1);
  });
});

describe("transit: guards and the exceptions inbox", () => {
  it("a pay whose amount differs is rejected: no transition, one exception row", async () => {
    const order = await createOrder(getPool(), { tenantId: TENANT, amount: 128_00 });

    const result = await transit(pay(order.id, 12_80, "txn-short"));

    expect(result).toMatchObject({ result: "rejected", guard: "amount-matches" });
    expect(await count(`SELECT 1 FROM order_transitions WHERE order_id = $1`, [order.id])).toBe(0);
    expect(await count(`SELECT 1 FROM outbox_messages WHERE order_id = $1`, [order.id])).toBe(0);
    const { rows } = await getPool().query(`SELECT kind, amount, biz_key FROM order_exceptions WHERE order_id = $1`, [order.id]);
    expect(rows).toEqual([{ kind: "amount-mismatch", amount: 12_80, biz_key: "txn-short" }]);
    const after = await getPool().query(`SELECT state, version FROM orders WHERE id = $1`, [order.id]);
    expect(after.rows[0]).toEqual({ state: "created", version: 0 });
  });

  it("confirm-delivery with a line still pending is rejected by nothing-pending", async () => {
    const order = await createOrder(getPool(), {
      tenantId: TENANT,
      lines: [
        { sku: "gems-300", kind: "currency", quantity: 300 },
        { sku: "skin-2", kind: "cosmetic", quantity: 1 },
      ],
    });
    await transit(pay(order.id, order.amount));
    await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", actor: "game", source: "api" });
    await grant({ orderId: order.id, sku: "gems-300", quantity: 300, grantId: "g1", actor: "game", source: "api" });

    const result = await transit({ orderId: order.id, event: "confirm-delivery", bizKey: "", actor: "game", source: "api" });

    expect(result).toMatchObject({ result: "rejected", guard: "nothing-pending" });
    expect(await count(`SELECT 1 FROM order_exceptions WHERE order_id = $1 AND kind = 'delivery-incomplete'`, [order.id])).toBe(1);
  });

  it("confirm-refund reverses every granted line in the ledger; reject-refund returns to the state before", async () => {
    const order = await createOrder(getPool(), {
      tenantId: TENANT,
      lines: [
        { sku: "gems-60", kind: "currency", quantity: 60 },
        { sku: "skin-3", kind: "cosmetic", quantity: 1 },
      ],
    });
    const actor = { actor: "game", source: "api" } as const;
    await transit(pay(order.id, order.amount));
    await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", ...actor });
    await grant({ orderId: order.id, sku: "gems-60", quantity: 60, grantId: "g1", ...actor });

    await transit({ orderId: order.id, event: "request-refund", bizKey: "rf-1", ...actor });
    const rejected = await transit({ orderId: order.id, event: "reject-refund", bizKey: "rf-1", ...actor });
    expect(rejected.result === "applied" && rejected.order.state).toBe("delivering");

    await grant({ orderId: order.id, sku: "skin-3", quantity: 1, grantId: "g2", ...actor });
    await transit({ orderId: order.id, event: "request-refund", bizKey: "rf-2", ...actor });
    const refunded = await transit({ orderId: order.id, event: "confirm-refund", bizKey: "rf-2", ...actor });

    expect(refunded.result === "applied" && refunded.order.state).toBe("refunded");
    const { rows } = await getPool().query(
      `SELECT sku, sum(quantity)::int AS net, count(*) FILTER (WHERE quantity < 0)::int AS reversals,
              max(reason) FILTER (WHERE quantity < 0) AS how
       FROM grants WHERE order_id = $1 GROUP BY sku ORDER BY sku`,
      [order.id],
    );
    expect(rows).toEqual([
      { sku: "gems-60", net: 0, reversals: 1, how: "revoke: refund confirmed" },
      { sku: "skin-3", net: 0, reversals: 1, how: "write-off: refund confirmed" },
    ]);
  });
});

describe("order_transitions is append-only", () => {
  it.each([
    ["UPDATE", `UPDATE order_transitions SET reason = 'rewritten'`],
    ["DELETE", `DELETE FROM order_transitions`],
    ["TRUNCATE", `TRUNCATE order_transitions CASCADE`],
  ])("%s is refused by the database", async (_, sql) => {
    const order = await createOrder(getPool(), { tenantId: TENANT });
    await transit(pay(order.id, order.amount));
    const before = await count(`SELECT 1 FROM order_transitions`, []);

    await expect(getPool().query(sql)).rejects.toThrow(/append-only/);

    expect(await count(`SELECT 1 FROM order_transitions`, [])).toBe(before);
  });
});
