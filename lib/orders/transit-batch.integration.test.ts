import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { transit, type TransitInput, type TransitResult } from "./transit";
import { DUPLICATES_SQL, transitBatch, type BatchInput } from "./transit-batch";
import type { OrderSnapshot } from "./types";

useFreshDatabase();

const TENANT = "batch";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

const close = (orderId: number): BatchInput => ({
  orderId,
  event: "close",
  bizKey: "timeout",
  expectedState: "created",
  actor: "system:timeout-close",
  source: "job",
  reason: "unpaid too long",
});

const pay = (orderId: number, amount: number, bizKey = `txn-${orderId}`): BatchInput => ({
  orderId,
  event: "pay",
  bizKey,
  amount,
  actor: "channel:alipay",
  source: "callback",
});

async function newOrders(n: number): Promise<OrderSnapshot[]> {
  return Promise.all(Array.from({ length: n }, () => createOrder(getPool(), { tenantId: TENANT })));
}

async function rowsPerOrder(table: string, ids: readonly number[]): Promise<number[]> {
  const { rows } = await getPool().query<{ n: number }>(
    `SELECT count(t.order_id)::int AS n FROM unnest($1::bigint[]) WITH ORDINALITY AS x(id, i)
     LEFT JOIN ${table} t ON t.order_id = x.id GROUP BY x.i ORDER BY x.i`,
    [ids],
  );
  return rows.map((r) => r.n);
}

/** A result without the ids and clocks that differ between two otherwise identical orders. */
function shape(result: TransitResult | undefined) {
  if (!result || result.result === "not-found") return result;
  const { id: _id, orderNo: _no, playerId: _player, stateAt: _at, ...order } = result.order;
  const rest: Record<string, unknown> = { ...result, order };
  if ("transition" in result) {
    const { id: _tid, at: _tat, bizKey: _key, ...transition } = result.transition;
    rest.transition = transition;
  }
  return rest;
}

describe("transitBatch", () => {
  it("closes a batch: one transition, one outbox message and version + 1 per order, in one transaction", async () => {
    const orders = await newOrders(50);
    const ids = orders.map((o) => o.id);

    const { results, busy } = await transitBatch(ids.map(close));

    expect(busy).toEqual([]);
    expect([...results.values()].map((r) => r.result)).toEqual(Array(50).fill("applied"));
    for (const order of orders) {
      const result = results.get(order.id);
      expect(result).toMatchObject({
        result: "applied",
        order: { id: order.id, state: "closed", version: order.version + 1 },
        transition: { event: "close", from: "created", to: "closed", bizKey: "timeout", actor: "system:timeout-close", source: "job" },
      });
    }
    expect(await rowsPerOrder("order_transitions", ids)).toEqual(Array(50).fill(1));
    expect(await rowsPerOrder("outbox_messages", ids)).toEqual(Array(50).fill(1));
    const { rows } = await getPool().query(`SELECT payload FROM outbox_messages WHERE order_id = $1`, [orders[0]!.id]);
    expect(rows[0].payload).toMatchObject({ tenantId: TENANT, orderNo: orders[0]!.orderNo, event: "close", from: "created", to: "closed" });

    // The same batch again is 50 duplicates returning the original transitions, and writes nothing.
    const replay = await transitBatch(ids.map(close));
    for (const id of ids) {
      const first = results.get(id)!;
      const again = replay.results.get(id)!;
      expect(again.result).toBe("duplicate");
      if (first.result !== "applied" || again.result !== "duplicate") throw new Error("unreachable");
      expect(again.transition).toEqual(first.transition);
    }
    expect(await rowsPerOrder("order_transitions", ids)).toEqual(Array(50).fill(1));
  });

  it("answers each order exactly as transit() would, including the exceptions it files", async () => {
    // Two identical sets of orders in every situation a batch meets; transit() gets one, the batch the other.
    async function situations() {
      const [fresh, paid, closedBefore, shortPaid, paidTwice] = await newOrders(5);
      await transit({ ...pay(paid!.id, paid!.amount) });
      await transit({ ...close(closedBefore!.id), bizKey: "agent-form-1", expectedState: undefined });
      await transit({ ...pay(paidTwice!.id, paidTwice!.amount, "txn-first") });
      const inputs: BatchInput[] = [
        close(fresh!.id), // applied
        close(paid!.id), // stale: expected created, it is paid
        pay(closedBefore!.id, closedBefore!.amount), // illegal, and a payment-after-close exception
        pay(shortPaid!.id, shortPaid!.amount - 1), // rejected by amount-matches, and an exception
        pay(paidTwice!.id, paidTwice!.amount, "txn-second"), // illegal, and a second-payment exception
      ];
      return inputs;
    }
    const one = await situations();
    const batched = await situations();

    const alone = [];
    for (const input of one) alone.push(await transit(input as TransitInput));
    const { results, busy } = await transitBatch(batched);

    expect(busy).toEqual([]);
    expect(batched.map((input) => shape(results.get(input.orderId)))).toEqual(alone.map(shape));
    expect(alone.map((r) => r.result)).toEqual(["applied", "stale", "illegal", "rejected", "illegal"]);
    const exceptions = async (inputs: BatchInput[]) => {
      const { rows } = await getPool().query<{ kind: string }>(
        `SELECT e.kind FROM unnest($1::bigint[]) WITH ORDINALITY AS x(id, i) JOIN order_exceptions e ON e.order_id = x.id ORDER BY x.i`,
        [inputs.map((i) => i.orderId)],
      );
      return rows.map((r) => r.kind);
    };
    expect(await exceptions(batched)).toEqual(["payment-after-close", "amount-mismatch", "second-payment"]);
    expect(await exceptions(batched)).toEqual(await exceptions(one));
  });

  it("skips an order whose row another transaction holds, without waiting for it, and closes the rest", async () => {
    const orders = await newOrders(5);
    const held = orders[2]!;
    const holder = await getPool().connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM orders WHERE id = $1 FOR UPDATE`, [held.id]);

      const { results, busy } = await transitBatch(orders.map((o) => close(o.id)));

      expect(busy).toEqual([held.id]);
      expect(results.has(held.id)).toBe(false);
      expect([...results.values()].map((r) => r.result)).toEqual(Array(4).fill("applied"));
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
    }
    const { rows } = await getPool().query(`SELECT state FROM orders WHERE id = $1`, [held.id]);
    expect(rows[0].state).toBe("created");
  });

  it("an unknown order id is reported busy, and a repeated id is refused before anything runs", async () => {
    const [order] = await newOrders(1);
    const { results, busy } = await transitBatch([close(order!.id), close(987_654_321)]);
    expect(busy).toEqual([987_654_321]);
    expect(results.get(order!.id)?.result).toBe("applied");

    await expect(transitBatch([close(order!.id), close(order!.id)])).rejects.toThrow(/appears twice/);
  });

  it("200 orders, batch closes racing single pays: exactly one applied transition per order", async () => {
    const orders = await newOrders(200);
    const ids = orders.map((o) => o.id);
    const batches = Array.from({ length: 10 }, (_, i) => ids.slice(i * 20, i * 20 + 20));

    const [closes, pays] = await Promise.all([
      Promise.all(batches.map((batch) => transitBatch(batch.map(close)))),
      Promise.all([...orders].reverse().map((o) => transit(pay(o.id, o.amount)))),
    ]);

    const closed = closes.flatMap((c) => [...c.results.values()]).filter((r) => r.result === "applied").length;
    const paid = pays.filter((p) => p.result === "applied").length;
    expect(closed + paid).toBe(200);
    // A pay that lost found the order closed: illegal. A close that lost was stale or skipped the busy row.
    expect(pays.filter((p) => p.result === "illegal")).toHaveLength(closed);
    expect(await rowsPerOrder("order_transitions", ids)).toEqual(Array(200).fill(1));
    expect(await rowsPerOrder("outbox_messages", ids)).toEqual(Array(200).fill(1));
    const { rows } = await getPool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM order_exceptions WHERE order_id = ANY($1) AND kind = 'payment-after-close'`,
      [ids],
    );
    expect(rows[0]!.n).toBe(closed);
  });
});

describe("the duplicate check under statistics that lag the table", () => {
  it("probes the unique key per order, never a scan of every (tenant, close, timeout)", async () => {
    // Statistics taken while the table was small, then 5,000 job closes that all share one bizKey:
    // what the timeout job leaves behind before autovacuum analyzes again.
    await getPool().query(`ANALYZE order_transitions`);
    await getPool().query(
      `WITH o AS (
         INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at)
         SELECT $1, 'STALE-' || g, 'p', 600, 'CNY', 'closed', now() FROM generate_series(1, 5000) g RETURNING id
       )
       INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source)
       SELECT $1, id, 'close', 'created', 'closed', 'timeout', 'system:timeout-close', 'job' FROM o`,
      [TENANT],
    );
    const ids = (await newOrders(3)).map((o) => o.id);

    const { rows } = await getPool().query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${DUPLICATES_SQL}`, [
      ids.map(() => TENANT),
      ids,
      ids.map(() => "close"),
      ids.map(() => "timeout"),
    ]);

    const reads = scans(rows[0]!["QUERY PLAN"][0].Plan).filter((n) => n["Relation Name"] === "order_transitions");
    expect(reads.map((n) => n["Index Name"])).toEqual(["order_transitions_tenant_id_order_id_event_biz_key_key"]);
  });
});

interface PlanNode {
  readonly "Relation Name"?: string;
  readonly "Index Name"?: string;
  readonly Plans?: PlanNode[];
}

function scans(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(scans)];
}
