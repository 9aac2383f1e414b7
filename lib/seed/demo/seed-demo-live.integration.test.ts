// Seeded history is what the live writers write: transit() files the same exception details, and the
// delivery coordinator finds its own keys on seeded orders and carries on from them.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne, one, rows } from "@/lib/db/sql";
import { coordinateDeliveries } from "@/lib/jobs/delivery-coordinator";
import { transit } from "@/lib/orders/transit";
import { useFreshDatabase } from "@/lib/test/database";
import { seedDemo } from "./seed-demo";

useFreshDatabase();

beforeAll(async () => {
  // Timestamps end at the real now, so what the live code writes comes after the seeded history.
  await seedDemo(getPool(), { orders: 1500, seed: 3 });
});

const exceptionRow = z.object({
  orderId: z.number(),
  kind: z.string(),
  event: z.string().nullable(),
  bizKey: z.string(),
  amount: z.number().nullable(),
  actor: z.string(),
  status: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
const EXCEPTION = `order_id AS "orderId", kind, event, biz_key AS "bizKey", amount, actor, status, detail`;

async function seededException(kind: string) {
  return one(getPool(), exceptionRow, `SELECT ${EXCEPTION} FROM order_exceptions WHERE kind = $1 ORDER BY id LIMIT 1`, [kind]);
}

async function exceptionFiled(orderId: number, bizKey: string) {
  return one(getPool(), exceptionRow, `SELECT ${EXCEPTION} FROM order_exceptions WHERE order_id = $1 AND biz_key = $2`, [orderId, bizKey]);
}

const orderRow = z.object({ id: z.number(), amount: z.number(), version: z.number() });

describe("seeded exceptions", () => {
  it("are filed as transit() files them: the refusal and the facts, no sentence", async () => {
    const details = await rows(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_exceptions WHERE detail ? 'reason'`);
    expect(details).toEqual([{ n: 0 }]);

    for (const kind of ["payment-after-close", "payment-after-refund", "amount-mismatch"]) {
      const seeded = await seededException(kind);
      const order = await one(getPool(), orderRow, `SELECT id, amount, version FROM orders WHERE id = $1`, [seeded.orderId]);
      const live = await transit({
        orderId: order.id,
        event: "pay",
        bizKey: `live-${kind}`,
        amount: seeded.amount ?? order.amount,
        actor: seeded.actor,
        source: "callback",
      });
      expect({ kind, result: live.result }).toEqual({ kind, result: kind === "amount-mismatch" ? "rejected" : "illegal" });
      expect(await exceptionFiled(order.id, `live-${kind}`)).toEqual({ ...seeded, bizKey: `live-${kind}`, status: "open" });
    }

    // A second payment was seeded while the order was paid; a paid order answers the same today.
    const second = await seededException("second-payment");
    const paid = await one(getPool(), orderRow, `SELECT id, amount, version FROM orders WHERE state = 'paid' AND version = 1 ORDER BY id LIMIT 1`);
    await transit({ orderId: paid.id, event: "pay", bizKey: "live-second", amount: paid.amount, actor: second.actor, source: "callback" });
    expect((await exceptionFiled(paid.id, "live-second")).detail).toEqual(second.detail);

    // The game server confirming a delivery it has not finished: the same pending lines, from the ledger.
    const incomplete = await seededException("delivery-incomplete");
    const premature = await transit({
      orderId: incomplete.orderId,
      event: "confirm-delivery",
      bizKey: "live-confirm",
      actor: incomplete.actor,
      source: "api",
    });
    expect(premature.result).toBe("rejected");
    expect(await exceptionFiled(incomplete.orderId, "live-confirm")).toEqual({ ...incomplete, bizKey: "live-confirm", status: "open" });
  });
});

const failureRow = z.object({ orderId: z.number(), status: z.string(), detail: z.record(z.string(), z.unknown()), due: z.boolean() });

async function failures(now: Date) {
  return rows(
    getPool(),
    failureRow,
    `SELECT order_id AS "orderId", status, detail, (detail->>'nextAttemptAt')::timestamptz <= $1 AS due
     FROM order_exceptions WHERE kind = 'delivery-failed' ORDER BY order_id, id`,
    [now],
  );
}

const grantShape = z.object({ orderId: z.number(), grants: z.array(z.string()), keys: z.array(z.string()) });

/** Per order, its grants and delivery transitions with the order number taken out of the grantIds. */
async function deliveryShapes(where: string, params: unknown[], limit = "ALL") {
  return rows(
    getPool(),
    grantShape,
    `SELECT o.id AS "orderId",
       (SELECT array_agg(concat_ws('|', g.sku, g.quantity, replace(g.grant_id, o.order_no, '<no>'), g.actor, g.source, g.reason)
          ORDER BY g.sku, g.grant_id) FROM grants g WHERE g.order_id = o.id) AS grants,
       (SELECT array_agg(concat_ws('|', t.event, t.biz_key, t.actor, t.source, coalesce(t.reason, '-')) ORDER BY t.id)
          FROM order_transitions t WHERE t.order_id = o.id AND t.event IN ('begin-delivery', 'confirm-delivery')) AS keys
     FROM orders o WHERE ${where} ORDER BY o.id LIMIT ${limit}`,
    params,
  );
}

describe("the delivery coordinator on seeded orders", () => {
  it("finds its failure records, retries on their backoff, and completes with its own keys", async () => {
    const before = await failures(new Date());
    expect(before.filter((f) => f.due).length).toBeGreaterThan(0);
    const pending = await rows(
      getPool(),
      z.object({ id: z.number() }),
      `SELECT id FROM orders WHERE tenant_id = 'fangzhou' AND state IN ('paid', 'delivering') ORDER BY id`,
    );

    expect(pending.length).toBeGreaterThan(5);

    // The grant endpoint is down: each due order counts one more attempt on its own record.
    const now = new Date();
    const down = await coordinateDeliveries({ now, fetch: async () => new Response("Service Unavailable", { status: 503 }), random: () => 0.5 });
    expect(down.errors).toBe(0);
    const after = await failures(now);
    for (const seeded of before) {
      const [record, ...others] = after.filter((f) => f.orderId === seeded.orderId);
      expect(others).toEqual([]);
      const attempts = Number(seeded.detail.attempts);
      expect(record!.detail).toMatchObject({
        attempts: seeded.due ? attempts + 1 : attempts,
        sku: seeded.detail.sku,
        grantId: seeded.detail.grantId,
        ...(seeded.due ? { lastError: "HTTP 503: Service Unavailable" } : { nextAttemptAt: seeded.detail.nextAttemptAt }),
      });
    }

    // Back up, hours later: every order is delivered, with one grant per line and the coordinator's keys.
    const later = new Date(Date.now() + 6 * 3_600_000);
    const up = await coordinateDeliveries({ now: later, fetch: async () => new Response(null, { status: 200 }) });
    expect(up).toMatchObject({ confirmed: pending.length, errors: 0, unrecorded: 0 });
    const open = await maybeOne(getPool(), z.object({ id: z.number() }), `SELECT id FROM order_exceptions WHERE kind = 'delivery-failed' AND status = 'open'`);
    expect(open).toBeNull();

    const completed = await deliveryShapes(`o.id = ANY($1)`, [pending.map((p) => p.id)]);
    // A seeded delivery of the same pack that the coordinator made from start to end.
    for (const live of completed) {
      const [seeded] = await deliveryShapes(
        `o.tenant_id = 'fangzhou' AND o.state = 'delivered' AND NOT o.id = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM order_transitions t WHERE t.order_id = o.id AND t.event = 'confirm-delivery' AND t.actor <> 'system:delivery')
         AND (SELECT array_agg(sku ORDER BY sku) FROM order_lines WHERE order_id = o.id)
           = (SELECT array_agg(sku ORDER BY sku) FROM order_lines WHERE order_id = $2)`,
        [pending.map((p) => p.id), live.orderId],
        "1",
      );
      expect({ grants: live.grants, keys: live.keys }).toEqual({ grants: seeded!.grants, keys: seeded!.keys });
    }
  });
});
