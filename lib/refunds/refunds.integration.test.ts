import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { applyRefundEvent } from "@/lib/cases/refund-event";
import { getPool } from "@/lib/db/pool";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { markRefundsSent } from "./mark-sent";
import { requestRefund, type RefundRequest } from "./request-refund";

useFreshDatabase();

const TENANT = "refunds";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

/** A refund of a stray payment (no order): what a payment after close would be refunded as. */
const request = (paymentTxn: string, amount: number, paymentAmount = 100, refundId = `rf-${randomUUID()}`): RefundRequest => ({
  tenantId: TENANT,
  refundId,
  orderId: null,
  caseId: null,
  channel: "alipay",
  paymentTxn,
  paymentAmount,
  amount,
  currency: "CNY",
  reason: "paid after the order closed",
  requestedBy: "staff:ops@example.com",
});

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return rows[0]!.n;
}

describe("channel refunds: the cap on a payment", () => {
  it("50 concurrent refund requests of 10 on a payment of 100: exactly 10 are requested, 40 refused, nothing over", async () => {
    const txn = `alipay-${randomUUID()}`;
    const settled = await Promise.allSettled(Array.from({ length: 50 }, () => requestRefund(request(txn, 10))));

    expect(settled.filter((s) => s.status === "rejected")).toEqual([]);
    const results = settled.map((s) => (s.status === "fulfilled" ? s.value : null)!);
    expect(results.filter((r) => r.result === "requested")).toHaveLength(10);
    const refused = results.filter((r) => r.result === "refused");
    expect(refused).toHaveLength(40);
    expect(refused[0]).toEqual({ result: "refused", refusal: { kind: "refund-exceeds-payment", requested: 10, refundable: 0, currency: "CNY" } });

    const { rows } = await getPool().query(`SELECT count(*)::int AS n, sum(amount)::int AS total FROM payment_refunds WHERE payment_txn = $1`, [txn]);
    expect(rows[0]).toEqual({ n: 10, total: 100 });
    // Each request is one outbox message for the channel and one audit fact.
    expect(await count(`SELECT 1 FROM outbox_messages WHERE topic = 'refund.requested' AND payload->>'paymentTxn' = $1`, [txn])).toBe(10);
    expect(await count(`SELECT 1 FROM audit_events WHERE action = 'refund.requested' AND detail->>'paymentTxn' = $1`, [txn])).toBe(10);
  });

  it("the same refund id again is the same refund, not a second one", async () => {
    const txn = `wechat-${randomUUID()}`;
    const first = await requestRefund(request(txn, 60));
    expect(first.result).toBe("requested");
    const again = await requestRefund({ ...request(txn, 60), refundId: first.result === "requested" ? first.refund.refundId : "" });
    expect(again).toMatchObject({ result: "duplicate", refund: { amount: 60, status: "requested" } });
    expect(await count(`SELECT 1 FROM payment_refunds WHERE payment_txn = $1`, [txn])).toBe(1);
  });

  it("a failed refund gives its amount back to the payment; a confirmed one does not", async () => {
    const txn = `alipay-${randomUUID()}`;
    const a = await requestRefund(request(txn, 70));
    if (a.result !== "requested") throw new Error("expected a refund");
    expect(await requestRefund(request(txn, 40))).toMatchObject({ result: "refused", refusal: { refundable: 30 } });

    expect(await applyRefundEvent({ tenantId: TENANT, refundId: a.refund.refundId, event: "fail", bizKey: "fail-1", actor: "apikey:refunds/alipay" })).toMatchObject({
      result: "applied",
      refund: { status: "failed", channelRef: "fail-1" },
    });
    const b = await requestRefund(request(txn, 100));
    if (b.result !== "requested") throw new Error("expected a refund");
    await applyRefundEvent({ tenantId: TENANT, refundId: b.refund.refundId, event: "confirm", bizKey: "ok-1", actor: "apikey:refunds/alipay" });
    expect(await requestRefund(request(txn, 1))).toMatchObject({ result: "refused", refusal: { refundable: 0 } });
  });
});

describe("channel refunds: the channel's answers", () => {
  it("confirm is applied once; the same answer again is a duplicate; anything else on a settled refund is illegal", async () => {
    const r = await requestRefund(request(`alipay-${randomUUID()}`, 50));
    if (r.result !== "requested") throw new Error("expected a refund");
    const refundId = r.refund.refundId;
    const answer = (event: "confirm" | "fail", bizKey: string) => applyRefundEvent({ tenantId: TENANT, refundId, event, bizKey, actor: "apikey:refunds/alipay" });

    const results = await Promise.all(Array.from({ length: 20 }, () => answer("confirm", "receipt-1")));
    expect(results.filter((x) => x.result === "applied")).toHaveLength(1);
    expect(results.filter((x) => x.result === "duplicate")).toHaveLength(19);
    expect(await answer("confirm", "receipt-2")).toMatchObject({ result: "illegal", refusal: { kind: "refund-settled", refundId, status: "confirmed", event: "confirm" } });
    expect(await answer("fail", "receipt-1")).toMatchObject({ result: "illegal" });
    expect(await applyRefundEvent({ tenantId: TENANT, refundId: "rf-none", event: "confirm", bizKey: "x", actor: "a" })).toEqual({ result: "not-found" });
    // The refund of another tenant is not found either: a key only ever reaches its own tenant.
    await ensureTenant(getPool(), tenantSpec("refunds-other"));
    expect(await applyRefundEvent({ tenantId: "refunds-other", refundId, event: "confirm", bizKey: "receipt-1", actor: "a" })).toEqual({ result: "not-found" });

    expect(await count(`SELECT 1 FROM audit_events WHERE action = 'refund.confirmed' AND target = $1`, [`refund:${refundId}`])).toBe(1);
  });

  it("the relay marks a delivered request as sent (once, with its audit fact); an answered refund stays answered", async () => {
    const sent = await requestRefund(request(`alipay-${randomUUID()}`, 10));
    const answered = await requestRefund(request(`alipay-${randomUUID()}`, 10));
    if (sent.result !== "requested" || answered.result !== "requested") throw new Error("expected refunds");
    await applyRefundEvent({ tenantId: TENANT, refundId: answered.refund.refundId, event: "confirm", bizKey: "quick", actor: "apikey:refunds/alipay" });

    const mark = () =>
      transaction(
        (tx: PrismaTransaction) =>
          markRefundsSent(tx, [
            { tenantId: TENANT, refundId: sent.refund.refundId, messageId: 1 },
            { tenantId: TENANT, refundId: answered.refund.refundId, messageId: 2 },
          ]),
        { prisma: true },
      );
    expect(await mark()).toBe(1);
    expect(await mark()).toBe(0);
    const { rows } = await getPool().query(`SELECT refund_id, status FROM payment_refunds WHERE refund_id = ANY($1) ORDER BY refund_id`, [
      [sent.refund.refundId, answered.refund.refundId],
    ]);
    expect(Object.fromEntries(rows.map((r: { refund_id: string; status: string }) => [r.refund_id, r.status]))).toEqual({
      [sent.refund.refundId]: "sent",
      [answered.refund.refundId]: "confirmed",
    });
    expect(await count(`SELECT 1 FROM audit_events WHERE action = 'refund.sent' AND target = $1`, [`refund:${sent.refund.refundId}`])).toBe(1);
  });
});
