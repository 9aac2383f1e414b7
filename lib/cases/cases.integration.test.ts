import { randomUUID } from "node:crypto";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { recordFailure } from "@/lib/jobs/delivery-record";
import { grant } from "@/lib/orders/grant";
import { applyRefundEvent } from "@/lib/cases/refund-event";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { dismissCase } from "./dismiss";
import { amountMismatch, deliveryIncomplete, paymentAfterClose } from "./fixtures";
import { honourOrderNo, refundIdFor, resolveMoneyCase } from "./resolve-money";
import { resolveDeliveryCase } from "./resolve-delivery";
import { sweepDeliveryCases } from "./settle";
import { assignCase, takeCase } from "./take";

useFreshDatabase();

const TENANT = "cases";
const OPS = "staff:ops@example.com";
const MANAGER = "staff:manager@example.com";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

const caseRow = z.object({
  status: z.string(),
  owner: z.string().nullable(),
  resolution: z.string().nullable(),
  resolutionRef: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolvedReason: z.string().nullable(),
});
const readCase = (id: number) =>
  one(
    getPool(),
    caseRow,
    `SELECT status, owner, resolution, resolution_ref AS "resolutionRef", resolved_by AS "resolvedBy", resolved_reason AS "resolvedReason"
     FROM order_exceptions WHERE id = $1`,
    [id],
  );
const facts = (caseId: number) =>
  rows(getPool(), z.object({ action: z.string(), actor: z.string(), orderId: z.number().nullable() }), `SELECT action, actor, order_id AS "orderId" FROM audit_events WHERE target = $1 ORDER BY id`, [
    `case:${caseId}`,
  ]);
const problemOf = (settled: PromiseSettledResult<unknown>) =>
  settled.status === "rejected" && settled.reason instanceof AppError ? settled.reason.problem : settled.status === "rejected" ? String(settled.reason) : null;

describe("cases: concurrent takes and resolutions", () => {
  it("20 people take one case at once: one owns it, 19 hear who does, one audit fact", async () => {
    const { caseId } = await paymentAfterClose(TENANT);
    const takers = Array.from({ length: 20 }, (_, i) => `staff:ops${i}@example.com`);
    const settled = await Promise.allSettled(takers.map((actor) => takeCase({ caseId, actor, role: "ops" })));

    const taken = settled.filter((s) => s.status === "fulfilled");
    expect(taken).toHaveLength(1);
    const owner = (taken[0] as PromiseFulfilledResult<{ owner: string }>).value.owner;
    const refusals = settled.filter((s) => s.status === "rejected").map(problemOf);
    expect(refusals).toHaveLength(19);
    expect(new Set(refusals.map((p) => JSON.stringify(p)))).toEqual(new Set([JSON.stringify({ kind: "case-taken", owner: owner.replace("staff:", "") })]));
    expect(await readCase(caseId)).toMatchObject({ status: "in-progress", owner });
    expect(await facts(caseId)).toEqual([{ action: "case.taken", actor: owner, orderId: expect.any(Number) }]);
    // Taking one's own case again changes nothing; a manager may take it over.
    expect(await takeCase({ caseId, actor: owner, role: "ops" })).toEqual({ result: "already-yours", owner });
    expect(await takeCase({ caseId, actor: MANAGER, role: "manager" })).toEqual({ result: "taken", owner: MANAGER });
  });

  it("20 different refund submissions at once: one refund is asked for, the others are told where it stands", async () => {
    const { caseId, txn } = await paymentAfterClose(TENANT);
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, () => resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "refund", reason: "player asked for the money back", requestKey: randomUUID() })),
    );
    const done = settled.filter((s) => s.status === "fulfilled");
    expect(done).toHaveLength(1);
    const { refundId } = (done[0] as PromiseFulfilledResult<{ refundId: string }>).value;
    // This product has no webhook: the others hear that the refund has not reached the channel, and why (issue 29).
    expect(settled.filter((s) => s.status === "rejected").map(problemOf)).toEqual(Array(19).fill({ kind: "case-refund-not-sent", refundId, why: "no-webhook" }));
    const refunds = await rows(getPool(), z.object({ amount: z.number(), status: z.string() }), `SELECT amount, status FROM payment_refunds WHERE payment_txn = $1`, [txn]);
    expect(refunds).toEqual([{ amount: 18_00, status: "requested" }]);
    expect(await readCase(caseId)).toMatchObject({ status: "in-progress", owner: OPS, resolution: "refund" });
  });

  it("a resolution racing a dismissal: exactly one of them happens", async () => {
    const { caseId } = await paymentAfterClose(TENANT);
    const [refund, dismiss] = await Promise.allSettled([
      resolveMoneyCase({ caseId, actor: MANAGER, role: "manager", offer: "refund", reason: "refund it", requestKey: randomUUID() }),
      dismissCase({ caseId, actor: MANAGER, role: "manager", reason: "the channel already reversed it", requestKey: randomUUID() }),
    ]);
    expect([refund!.status, dismiss!.status].sort()).toEqual(["fulfilled", "rejected"]);
    const after = await readCase(caseId);
    expect(after.status === "dismissed").toBe(dismiss!.status === "fulfilled");
    expect(await facts(caseId)).toHaveLength(1);
  });
});

describe("cases: money resolutions through the domain", () => {
  it("refund at the channel: the same submission twice is one refund; the channel's confirmation resolves the case as the system", async () => {
    const { caseId, order } = await paymentAfterClose(TENANT);
    const requestKey = randomUUID();
    const input = { caseId, actor: OPS, role: "ops" as const, offer: "refund" as const, reason: "paid after the timeout", requestKey };
    expect(await resolveMoneyCase(input)).toEqual({ result: "refund-requested", refundId: refundIdFor(requestKey), amount: 18_00, currency: "CNY", webhookSet: false });
    expect(await resolveMoneyCase(input)).toEqual({ result: "duplicate", status: "in-progress" });

    const confirmed = await applyRefundEvent({ tenantId: TENANT, refundId: refundIdFor(requestKey), event: "confirm", bizKey: "receipt-9", actor: "apikey:cases/alipay" });
    expect(confirmed).toMatchObject({ result: "applied", caseResolved: true });
    expect(await readCase(caseId)).toMatchObject({ status: "resolved", resolution: "refund", resolvedBy: "system:cases" });
    expect(await facts(caseId)).toEqual([
      { action: "case.resolving", actor: OPS, orderId: order.id },
      { action: "case.resolved", actor: "system:cases", orderId: order.id },
    ]);
    // Resolved: another submission hears it, and nothing changes.
    await expect(resolveMoneyCase({ ...input, requestKey: randomUUID() })).rejects.toMatchObject({ problem: { kind: "case-closed", status: "resolved", by: "system:cases" } });
  });

  it("a refund the channel fails leaves the case to its owner, who can refund again", async () => {
    const { caseId } = await paymentAfterClose(TENANT);
    const first = randomUUID();
    await resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "refund", reason: "refund it", requestKey: first });
    await applyRefundEvent({ tenantId: TENANT, refundId: refundIdFor(first), event: "fail", bizKey: "declined-1", actor: "apikey:cases/alipay" });
    expect(await readCase(caseId)).toMatchObject({ status: "in-progress", owner: OPS });
    // Someone else may not; the owner may.
    await expect(resolveMoneyCase({ caseId, actor: "staff:other@example.com", role: "ops", offer: "refund", reason: "refund it", requestKey: randomUUID() })).rejects.toMatchObject({
      problem: { kind: "case-taken", owner: "ops@example.com" },
    });
    expect(await resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "refund", reason: "second try", requestKey: randomUUID() })).toMatchObject({
      result: "refund-requested",
      amount: 18_00,
    });
  });

  it("honour a late payment: a new order for the same player and lines, paid by that payment, linked both ways", async () => {
    const { caseId, order, txn } = await paymentAfterClose(TENANT);
    const result = await resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "honour", reason: "player still wants the gems", requestKey: randomUUID() });
    const orderNo = honourOrderNo(order.orderNo, caseId);
    expect(result).toEqual({ result: "honoured", orderNo });

    const honoured = await one(
      getPool(),
      z.object({ id: z.number(), state: z.string(), playerId: z.string(), amount: z.number(), lines: z.string(), payKey: z.string() }),
      `SELECT o.id, o.state, o.player_id AS "playerId", o.amount,
              (SELECT string_agg(sku || ':' || quantity, ',') FROM order_lines WHERE order_id = o.id) AS lines,
              (SELECT biz_key FROM order_transitions WHERE order_id = o.id AND event = 'pay') AS "payKey"
       FROM orders o WHERE o.tenant_id = $1 AND o.order_no = $2`,
      [TENANT, orderNo],
    );
    expect(honoured).toMatchObject({ state: "paid", playerId: order.playerId, amount: 18_00, lines: "gems-60:60", payKey: txn });
    expect(await readCase(caseId)).toMatchObject({ status: "resolved", resolution: "honour", resolutionRef: orderNo, resolvedBy: OPS });
    expect(await facts(caseId)).toEqual([
      { action: "case.resolved", actor: OPS, orderId: order.id },
      { action: "case.honoured", actor: OPS, orderId: honoured.id },
    ]);
    // The payment is spent: no refund is offered any more, and honouring twice is refused.
    await expect(resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "honour", reason: "again", requestKey: randomUUID() })).rejects.toMatchObject({
      problem: { kind: "case-closed" },
    });
  });

  it("overpaid: the order is paid at its price and the difference goes back; refunding all is then no longer offered", async () => {
    const { caseId, order, txn } = await amountMismatch(TENANT, 30_00, 33_00);
    expect(await resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "accept-and-refund-difference", reason: "keep the order", requestKey: randomUUID() })).toMatchObject({
      result: "refund-requested",
      amount: 3_00,
    });
    const state = await one(getPool(), z.object({ state: z.string() }), `SELECT state FROM orders WHERE id = $1`, [order.id]);
    expect(state.state).toBe("paid");
    const refunds = await rows(getPool(), z.object({ amount: z.number(), paymentAmount: z.number() }), `SELECT amount, payment_amount AS "paymentAmount" FROM payment_refunds WHERE payment_txn = $1`, [txn]);
    expect(refunds).toEqual([{ amount: 3_00, paymentAmount: 33_00 }]);
  });

  it("underpaid: only a refund is offered; dismissing money is a manager's call", async () => {
    const { caseId } = await amountMismatch(TENANT, 30_00, 3_00);
    await expect(resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "accept-and-refund-difference", reason: "keep", requestKey: randomUUID() })).rejects.toMatchObject({
      problem: { kind: "resolution-not-offered" },
    });
    await expect(dismissCase({ caseId, actor: OPS, role: "ops", reason: "nothing to do", requestKey: randomUUID() })).rejects.toMatchObject({
      code: "forbidden",
      problem: { kind: "dismiss-not-for-role", roles: ["manager"] },
    });
    expect(await dismissCase({ caseId, actor: MANAGER, role: "manager", reason: "the channel reversed it itself", requestKey: randomUUID() })).toEqual({ result: "dismissed" });
    expect(await readCase(caseId)).toMatchObject({ status: "dismissed", resolvedBy: MANAGER, resolvedReason: "the channel reversed it itself" });
  });
});

describe("cases: goods resolutions", () => {
  it("compensate the missing units: granted through the ledger, and the case resolves itself", async () => {
    const { caseId, order } = await deliveryIncomplete(TENANT);
    const result = await resolveDeliveryCase({ caseId, actor: OPS, role: "ops", offer: "compensate", reason: "the player is missing 40 gems", requestKey: randomUUID() });
    expect(result).toEqual({ result: "compensated", grants: [{ sku: "gems-60", quantity: 40, result: "applied" }], resolved: true });
    const ledger = await rows(getPool(), z.object({ quantity: z.number(), actor: z.string() }), `SELECT quantity, actor FROM grants WHERE order_id = $1 ORDER BY id`, [order.id]);
    expect(ledger).toEqual([
      { quantity: 20, actor: "game:server" },
      { quantity: 40, actor: OPS },
    ]);
    expect(await readCase(caseId)).toMatchObject({ status: "resolved", resolution: "compensate", resolvedBy: "system:cases" });
    expect((await facts(caseId)).map((f) => f.action)).toEqual(["case.resolving", "case.resolved"]);
  });

  it("repair delivery: the order is delivered and the case resolves; assigning it first needs the owner the form saw", async () => {
    const { caseId, order } = await deliveryIncomplete(TENANT);
    await takeCase({ caseId, actor: OPS, role: "ops" });
    await expect(assignCase({ caseId, actor: MANAGER, assignee: "staff:b@example.com", expectedOwner: null, reason: "b knows this game" })).rejects.toMatchObject({
      problem: { kind: "case-taken", owner: "ops@example.com" },
    });
    await assignCase({ caseId, actor: OPS, assignee: "staff:b@example.com", expectedOwner: OPS, reason: "b knows this game" });
    const result = await resolveDeliveryCase({ caseId, actor: "staff:b@example.com", role: "ops", offer: "repair", reason: "stuck half way", requestKey: randomUUID() });
    expect(result).toMatchObject({ result: "repaired", repair: { result: "completed" }, resolved: true });
    const state = await one(getPool(), z.object({ state: z.string() }), `SELECT state FROM orders WHERE id = $1`, [order.id]);
    expect(state.state).toBe("delivered");
    expect(await readCase(caseId)).toMatchObject({ status: "resolved", resolution: "repair", owner: "staff:b@example.com" });
  });

  it("the sweep closes a goods case once the game server finishes the lines itself, as the system", async () => {
    const { caseId, order } = await deliveryIncomplete(TENANT);
    expect(await sweepDeliveryCases()).toBe(0);
    await grant({ orderId: order.id, sku: "gems-60", quantity: 40, grantId: "srv-2", actor: "game:server", source: "api" });
    expect(await sweepDeliveryCases()).toBe(1);
    expect(await readCase(caseId)).toMatchObject({ status: "resolved", resolution: "delivered", resolvedBy: "system:cases" });
    expect(await facts(caseId)).toEqual([{ action: "case.resolved", actor: "system:cases", orderId: order.id }]);
    expect(await sweepDeliveryCases()).toBe(0);
  });

  it("a grant call failing again after the case was dismissed opens it again, due from now, and says so", async () => {
    const { order } = await deliveryIncomplete(TENANT);
    const failure = {
      tenantId: TENANT,
      orderId: order.id,
      failures: 0,
      request: { tenantId: TENANT, orderNo: order.orderNo, playerId: order.playerId, sku: "gems-60", kind: "currency", quantity: 40, grantId: "deliver:x:gems-60:20" },
      error: "HTTP 503: busy",
    };
    const options = { now: new Date(), random: () => 0.5, pool: getPool() };
    await recordFailure(failure, options);
    const { id } = await one(getPool(), z.object({ id: z.number() }), `SELECT id FROM order_exceptions WHERE order_id = $1 AND biz_key = 'coordinator'`, [order.id]);
    await takeCase({ caseId: id, actor: OPS, role: "ops" });
    // Working it keeps it: a second failure only counts.
    await recordFailure({ ...failure, failures: 1 }, options);
    expect(await readCase(id)).toMatchObject({ status: "in-progress", owner: OPS });
    await dismissCase({ caseId: id, actor: OPS, role: "ops", reason: "game server was down for maintenance", requestKey: randomUUID() });
    await recordFailure(failure, options);
    expect(await readCase(id)).toMatchObject({ status: "open", owner: null, resolvedBy: null });
    expect((await facts(id)).map((f) => f.action)).toEqual(["case.taken", "case.dismissed", "case.reopened"]);
  });
});
