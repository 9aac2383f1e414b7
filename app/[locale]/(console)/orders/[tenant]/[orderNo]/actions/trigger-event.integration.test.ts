import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { triggerEvent } from "./trigger-event";


useFreshDatabase();

const as = (role: Role, tenantIds: readonly string[] = ["console"]) => signInAs(role, tenantIds);

async function paidOrder() {
  const order = await createOrder(getPool(), { tenantId: "console", amount: 30_00 });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${order.id}`, amount: 30_00, actor: "channel", source: "callback" });
  return { ...order, version: 1 };
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("console"));
  await ensureTenant(getPool(), tenantSpec("elsewhere"));
});

describe("triggerEvent (console actions)", () => {
  it("a double-submitted form applies once: applied, then duplicate, one transition", async () => {
    as("agent");
    const order = await paidOrder();
    const form = {
      tenant: "console",
      orderNo: order.orderNo,
      event: "request-refund" as const,
      reason: "player was charged twice",
      idempotencyKey: randomUUID(),
      expectedVersion: order.version,
    };

    const [first, second] = await Promise.all([triggerEvent(form), triggerEvent(form)]);

    const results = [first, second].map((r) => (r.ok ? r.data.result : r.error.code)).sort();
    expect(results).toEqual(["applied", "duplicate"]);
    const { rows } = await getPool().query(
      `SELECT event, biz_key, actor, source, reason FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`,
      [order.id],
    );
    expect(rows).toEqual([
      { event: "request-refund", biz_key: `console:${form.idempotencyKey}`, actor: "staff:agent@example.com", source: "console", reason: "player was charged twice" },
    ]);
  });

  it("a form rendered before the order moved is stale, and says what changed", async () => {
    as("agent");
    const order = await paidOrder();
    await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", actor: "game:server", source: "api" });

    const result = await triggerEvent({
      tenant: "console",
      orderNo: order.orderNo,
      event: "request-refund",
      reason: "player asked for it",
      idempotencyKey: randomUUID(),
      expectedVersion: order.version,
    });

    expect(result).toMatchObject({
      ok: true,
      data: { result: "stale", refusal: { kind: "stale-version", expected: 1, actual: 2 }, seenVersion: 1, version: 2, since: [{ event: "begin-delivery", from: "paid", to: "delivering", actor: "game:server" }] },
    });
  });

  it("after a stale answer, the same form sent again against the reloaded version applies once (the form's key is kept)", async () => {
    as("agent");
    const order = await paidOrder();
    await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", actor: "game:server", source: "api" });
    const form = { tenant: "console", orderNo: order.orderNo, event: "request-refund" as const, reason: "player asked for it", idempotencyKey: randomUUID() };

    const stale = await triggerEvent({ ...form, expectedVersion: order.version });
    expect(stale).toMatchObject({ ok: true, data: { result: "stale", version: 2 } });
    // A stale answer wrote nothing: the retry with the same key is a first change, not a duplicate.
    const again = await triggerEvent({ ...form, expectedVersion: order.version });
    expect(again).toMatchObject({ ok: true, data: { result: "stale" } });

    const retried = await triggerEvent({ ...form, expectedVersion: 2 });
    expect(retried).toMatchObject({ ok: true, data: { result: "applied", state: "refunding", version: 3 } });
    const twice = await triggerEvent({ ...form, expectedVersion: 2 });
    expect(twice).toMatchObject({ ok: true, data: { result: "duplicate", state: "refunding" } });
    const { rows } = await getPool().query(`SELECT from_state, reason FROM order_transitions WHERE order_id = $1 AND event = 'request-refund'`, [order.id]);
    expect(rows).toEqual([{ from_state: "delivering", reason: "player asked for it" }]);
  });

  it("refuses an event outside the role's whitelist, an order outside the scope, and a short reason — writing nothing", async () => {
    const order = await paidOrder();
    const base = { tenant: "console", orderNo: order.orderNo, idempotencyKey: randomUUID(), expectedVersion: order.version };

    as("agent");
    const pay = await triggerEvent({ ...base, event: "begin-delivery", reason: "ship it now please" });
    expect(pay).toMatchObject({ ok: false, error: { code: "forbidden" } });

    as("ops", ["elsewhere"]);
    const foreign = await triggerEvent({ ...base, event: "begin-delivery", reason: "ship it now please" });
    expect(foreign).toMatchObject({ ok: false, error: { code: "not-found" } });

    as("ops");
    const short = await triggerEvent({ ...base, event: "begin-delivery", reason: " ok " });
    expect(short).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { reason: ["At least 5 characters."] } } });

    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM order_transitions WHERE order_id = $1`, [order.id]);
    expect(rows[0].n).toBe(1);
  });

  it("manual payment confirmation by ops uses the channel's transaction id, so the real callback is a duplicate", async () => {
    as("ops");
    const order = await createOrder(getPool(), { tenantId: "console", amount: 30_00 });

    const manual = await triggerEvent({
      tenant: "console",
      orderNo: order.orderNo,
      event: "pay",
      channelKey: "wx-4200001",
      amount: 30_00,
      reason: "channel dashboard shows it paid",
      idempotencyKey: randomUUID(),
      expectedVersion: 0,
    });
    const callback = await transit({ orderId: order.id, event: "pay", bizKey: "wx-4200001", amount: 30_00, actor: "channel:wechat", source: "callback" });

    expect(manual).toMatchObject({ ok: true, data: { result: "applied", state: "paid", version: 1 } });
    expect(callback.result).toBe("duplicate");
  });
});
