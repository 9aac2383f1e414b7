import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { execute, one, rows } from "@/lib/db/sql";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { createOrder, type LineSpec } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { coordinateDeliveries, type DeliveryReport, type GrantRequest } from "./delivery-coordinator";
import type { UnrecordedGrant } from "./delivery-record";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "./signature";
import { startReceiver, type ReceivedRequest, type Receiver } from "./test-receiver";

useFreshDatabase();

const LINES: readonly LineSpec[] = [
  { sku: "gems-60", kind: "currency", quantity: 60 },
  { sku: "skin-1", kind: "cosmetic", quantity: 1 },
];
const NOTHING: DeliveryReport = { begun: 0, granted: 0, confirmed: 0, failed: 0, unrecorded: 0, skipped: 0, errors: 0 };

/**
 * A game server's grant endpoint, as the contract asks: each grantId is granted once; a repeat is
 * answered 2xx without granting again. `behaviour` can make it refuse before granting, or grant and
 * then fail to answer (the response is lost: the case a stable grantId exists for).
 */
type Decision = "ok" | "refuse" | "grant-then-fail";
type Behaviour = (request: GrantRequest, seenBefore: boolean) => Decision | Promise<Decision>;
let behaviour: Behaviour;
let receiver: Receiver;
const grantedToPlayer = new Map<string, number>();
const seenGrantIds = new Set<string>();
let badSignatures = 0;
const secrets: Record<string, string> = {};
const secretRow = z.object({ signingSecret: z.string() });

beforeAll(async () => {
  receiver = await startReceiver(async (request: ReceivedRequest) => {
    const body = JSON.parse(request.body) as GrantRequest;
    const signed = verifySignature({
      secret: secrets[body.tenantId] ?? "",
      signature: request.headers[SIGNATURE_HEADER] as string,
      timestamp: request.headers[TIMESTAMP_HEADER] as string,
      body: request.body,
    });
    if (!signed) {
      badSignatures++;
      return 401;
    }
    const seenBefore = seenGrantIds.has(body.grantId);
    const decision = await behaviour(body, seenBefore);
    if (decision === "refuse") return 503;
    if (!seenBefore) {
      seenGrantIds.add(body.grantId);
      const line = `${body.orderNo}:${body.sku}`;
      grantedToPlayer.set(line, (grantedToPlayer.get(line) ?? 0) + body.quantity);
    }
    return decision === "grant-then-fail" ? 502 : 200;
  });
  const pool = getPool();
  const grantUrl = `${receiver.url}/grants`;
  for (const spec of [
    tenantSpec("fangzhou", { deliveryMode: "managed", grantEndpointUrl: grantUrl }),
    // External mode: its game server drives delivery, even though an endpoint is configured.
    tenantSpec("xiaoxiao", { deliveryMode: "external", grantEndpointUrl: grantUrl }),
  ]) {
    await ensureTenant(pool, spec);
    const { signingSecret } = await one(pool, secretRow, `SELECT signing_secret AS "signingSecret" FROM tenant_settings WHERE tenant_id = $1`, [spec.id]);
    secrets[spec.id] = signingSecret;
  }
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  behaviour = () => "ok";
});

async function paidOrders(tenantId: string, n: number, lines: readonly LineSpec[] = LINES) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const order = await createOrder(getPool(), { tenantId, lines });
      const paid = await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: order.amount, actor: "channel", source: "callback" });
      expect(paid.result).toBe("applied");
      return order;
    }),
  );
}

const ledgerRow = z.object({ orderNo: z.string(), sku: z.string(), quantity: z.number(), granted: z.number(), state: z.string() });

function ledger(ids: readonly number[]) {
  return rows(
    getPool(),
    ledgerRow,
    `SELECT o.order_no AS "orderNo", l.sku, l.quantity, o.state,
            COALESCE((SELECT sum(g.quantity) FROM grants g WHERE g.order_id = l.order_id AND g.sku = l.sku), 0)::int AS granted
     FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.id = ANY($1) ORDER BY o.id, l.sku`,
    [ids],
  );
}

const transitionCountRow = z.object({ event: z.string(), bizKey: z.string(), actor: z.string(), n: z.number() });

function transitionCounts(ids: readonly number[]) {
  return rows(
    getPool(),
    transitionCountRow,
    `SELECT event, biz_key AS "bizKey", actor, count(*)::int AS n FROM order_transitions
     WHERE order_id = ANY($1) AND event IN ('begin-delivery', 'confirm-delivery') GROUP BY 1, 2, 3 ORDER BY 1`,
    [ids],
  );
}

const exceptionRow = z.object({ kind: z.string(), bizKey: z.string(), status: z.string(), resolvedBy: z.string().nullable(), detail: z.record(z.string(), z.unknown()) });
const EXCEPTION_COLUMNS = `kind, biz_key AS "bizKey", status, resolved_by AS "resolvedBy", detail`;

const requestsFor = (orderNos: ReadonlySet<string>, from = 0) =>
  receiver.requests.slice(from).filter((r) => orderNos.has((JSON.parse(r.body) as GrantRequest).orderNo));

describe("coordinateDeliveries", () => {
  it("managed tenant: begins, grants every pending line once, confirms; external tenant untouched", async () => {
    const managed = await paidOrders("fangzhou", 30);
    const external = await paidOrders("xiaoxiao", 10);
    // Already delivering, one line partly granted by hand (3 of 10): only the 7 still owed are asked for.
    const [partial] = await paidOrders("fangzhou", 1, [{ sku: "gems-10", kind: "currency", quantity: 10 }]);
    await transit({ orderId: partial!.id, event: "begin-delivery", bizKey: "ops", actor: "staff:ops", source: "console" });
    await grant({ orderId: partial!.id, sku: "gems-10", quantity: 3, grantId: "manual-1", actor: "staff:ops", source: "console" });
    const before = receiver.requests.length;

    const report = await coordinateDeliveries();

    expect(report).toEqual({ ...NOTHING, begun: 30, granted: 61, confirmed: 31 });
    const calls = receiver.requests.slice(before).map((r) => JSON.parse(r.body) as GrantRequest);
    expect(calls).toHaveLength(61);
    expect(new Set(calls.map((c) => c.grantId)).size).toBe(61);
    expect(badSignatures).toBe(0);
    const first = managed[0]!;
    expect(calls).toContainEqual({
      tenantId: "fangzhou",
      orderNo: first.orderNo,
      playerId: first.playerId,
      sku: "gems-60",
      kind: "currency",
      quantity: 60,
      grantId: `deliver:${first.orderNo}:gems-60:0`,
    });
    expect(calls).toContainEqual(
      expect.objectContaining({ orderNo: partial!.orderNo, quantity: 7, grantId: `deliver:${partial!.orderNo}:gems-10:3` }),
    );

    const lines = await ledger([...managed, partial!].map((o) => o.id));
    expect(lines.every((l) => l.granted === l.quantity && l.state === "delivered")).toBe(true);
    expect(await transitionCounts(managed.map((o) => o.id))).toEqual([
      { event: "begin-delivery", bizKey: "coordinator", actor: "system:delivery", n: 30 },
      { event: "confirm-delivery", bizKey: "coordinator", actor: "system:delivery", n: 30 },
    ]);
    const grantedBy = await rows(getPool(), z.object({ actor: z.string(), source: z.string() }), `SELECT DISTINCT actor, source FROM grants WHERE order_id = ANY($1)`, [
      managed.map((o) => o.id),
    ]);
    expect(grantedBy).toEqual([{ actor: "system:delivery", source: "job" }]);

    expect(requestsFor(new Set(external.map((o) => o.orderNo)), before)).toHaveLength(0);
    expect((await ledger(external.map((o) => o.id))).every((l) => l.state === "paid" && l.granted === 0)).toBe(true);

    // Nothing left to do.
    expect(await coordinateDeliveries()).toEqual(NOTHING);
  });

  it("answers lost after granting: retried after backoff with the same grantId, never granted twice", async () => {
    const orders = await paidOrders("fangzhou", 10);
    const orderNos = new Set(orders.map((o) => o.orderNo));
    const ids = orders.map((o) => o.id);
    // The game server grants every new grantId, but the answer never arrives.
    behaviour = (_request, seenBefore) => (seenBefore ? "ok" : "grant-then-fail");
    const t0 = new Date(Date.now() + 1000);
    const run = (offsetMs: number) => coordinateDeliveries({ now: new Date(t0.getTime() + offsetMs), random: () => 1 });
    const before = receiver.requests.length;

    // Each order stops at its first line (sorted: gems-60), which the game server did grant.
    expect(await run(0)).toEqual({ ...NOTHING, begun: 10, failed: 10 });
    const failures = await rows(
      getPool(),
      exceptionRow,
      `SELECT ${EXCEPTION_COLUMNS} FROM order_exceptions WHERE order_id = ANY($1) AND kind = 'delivery-failed' AND biz_key = 'coordinator'`,
      [ids],
    );
    expect(failures).toHaveLength(10);
    expect(failures[0]).toMatchObject({
      status: "open",
      detail: { attempts: 1, lastError: "HTTP 502: refused", sku: "gems-60", nextAttemptAt: new Date(t0.getTime() + 2000).toISOString() },
    });

    // Not due yet: no call at all.
    expect(await run(1999)).toEqual(NOTHING);
    // Due: the same grantId again, which the game server answers as done; the ledger catches up.
    // Then the second line: granted, answer lost again (second failure, 4 s).
    expect(await run(2000)).toEqual({ ...NOTHING, granted: 10, failed: 10 });
    expect(await run(5999)).toEqual(NOTHING);
    expect(await run(6000)).toEqual({ ...NOTHING, granted: 10, confirmed: 10 });

    const calls = requestsFor(orderNos, before).map((r) => (JSON.parse(r.body) as GrantRequest).grantId);
    expect(calls).toHaveLength(40);
    expect(new Set(calls).size).toBe(20);
    for (const order of orders) {
      expect(grantedToPlayer.get(`${order.orderNo}:gems-60`)).toBe(60);
      expect(grantedToPlayer.get(`${order.orderNo}:skin-1`)).toBe(1);
    }
    expect((await ledger(ids)).every((l) => l.granted === l.quantity && l.state === "delivered")).toBe(true);
    const resolved = await rows(getPool(), exceptionRow, `SELECT ${EXCEPTION_COLUMNS} FROM order_exceptions WHERE order_id = ANY($1) AND kind = 'delivery-failed'`, [
      ids,
    ]);
    expect(resolved).toHaveLength(10);
    expect(resolved.every((r) => r.status === "resolved" && r.resolvedBy === "system:delivery" && r.detail.attempts === 2)).toBe(true);
  });

  it("three coordinators at once over 60 paid orders: each line is called for once, each order moved once", async () => {
    const orders = await paidOrders("fangzhou", 60);
    const before = receiver.requests.length;

    const reports = await Promise.all([1, 2, 3].map(() => coordinateDeliveries({ batchSize: 10 })));

    const sum = (key: keyof DeliveryReport) => reports.reduce((n, r) => n + r[key], 0);
    expect({ begun: sum("begun"), granted: sum("granted"), confirmed: sum("confirmed"), failed: sum("failed"), errors: sum("errors") }).toEqual({
      begun: 60,
      granted: 120,
      confirmed: 60,
      failed: 0,
      errors: 0,
    });
    const calls = requestsFor(new Set(orders.map((o) => o.orderNo)), before).map((r) => (JSON.parse(r.body) as GrantRequest).grantId);
    expect(calls).toHaveLength(120);
    expect(new Set(calls).size).toBe(120);
    expect(await transitionCounts(orders.map((o) => o.id))).toEqual([
      { event: "begin-delivery", bizKey: "coordinator", actor: "system:delivery", n: 60 },
      { event: "confirm-delivery", bizKey: "coordinator", actor: "system:delivery", n: 60 },
    ]);
  });

  it("a refund requested while the game server grants: the ledger refuses, and ops get an exception", async () => {
    const [order] = await paidOrders("fangzhou", 1, [{ sku: "gems-60", kind: "currency", quantity: 60 }]);
    behaviour = async () => {
      await transit({ orderId: order!.id, event: "request-refund", bizKey: "rf-1", actor: "staff:agent", source: "console", reason: "player asked" });
      return "ok" as const;
    };

    expect(await coordinateDeliveries()).toEqual({ ...NOTHING, begun: 1, unrecorded: 1 });

    const grantId = `deliver:${order!.orderNo}:gems-60:0`;
    expect(await rows(getPool(), exceptionRow, `SELECT ${EXCEPTION_COLUMNS} FROM order_exceptions WHERE order_id = $1`, [order!.id])).toEqual([
      {
        kind: "delivery-failed",
        bizKey: `unrecorded:${grantId}`,
        status: "open",
        resolvedBy: null,
        // Facts, not a sentence: the console words them in the reader's language.
        detail: {
          grantResult: "invalid-state",
          refusal: { kind: "grant-not-allowed", state: "refunding" },
          sku: "gems-60",
          quantity: 60,
          grantId,
          state: "refunding",
        } satisfies UnrecordedGrant,
      },
    ]);
    expect((await ledger([order!.id]))[0]).toMatchObject({ granted: 0, state: "refunding" });
  });

  it("an order under an ops repair (its delivery lock held) is left alone until the repair lets go", async () => {
    const [order] = await paidOrders("fangzhou", 1, [{ sku: "gems-6", kind: "currency", quantity: 6 }]);
    // The lock repair delivery takes (lib/orders/repair-delivery.ts), on another session.
    const repair = await getPool().connect();
    try {
      const key = `delivery:fangzhou:${order!.orderNo}`;
      await execute(repair, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, [key]);
      expect(await coordinateDeliveries()).toEqual({ ...NOTHING, skipped: 1 });
      await execute(repair, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [key]);
    } finally {
      repair.release();
    }
    expect(await coordinateDeliveries()).toEqual({ ...NOTHING, begun: 1, granted: 1, confirmed: 1 });
  });

  it("an order in backoff that ops resolved by hand is retried on the next run", async () => {
    const [order] = await paidOrders("fangzhou", 1, [{ sku: "skin-2", kind: "cosmetic", quantity: 1 }]);
    behaviour = () => "refuse";
    expect(await coordinateDeliveries()).toEqual({ ...NOTHING, begun: 1, failed: 1 });
    behaviour = () => "ok";
    expect(await coordinateDeliveries()).toEqual(NOTHING);

    await execute(
      getPool(),
      `UPDATE order_exceptions SET status = 'resolved', resolved_at = now(), resolved_by = 'staff:ops' WHERE order_id = $1`,
      [order!.id],
    );
    expect(await coordinateDeliveries()).toEqual({ ...NOTHING, granted: 1, confirmed: 1 });
  });
});
