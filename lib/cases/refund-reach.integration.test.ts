// Issue 29: a channel refund that never left says so — on the case, in the queue and on the
// overview — and a person can resend it once a webhook is configured, or record that the channel was
// told another way. Each change is audited in its own transaction; an agent is told who works cases.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { execute, rows } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { NO_WEBHOOK, relayOutbox } from "@/lib/jobs/outbox-relay";
import { applyRefundEvent } from "@/lib/cases/refund-event";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { paymentAfterClose } from "./fixtures";
import type { Viewer } from "./offers";
import { loadCaseQueue } from "./queries/case-queue";
import { loadOrderCases } from "./queries/order-cases";
import { unsentRefundCounts } from "./queries/unsent-refunds";
import { actOnCaseRefund } from "./refund-actions";
import { resolveMoneyCase } from "./resolve-money";

useFreshDatabase();

const TENANT = "silent";
const OPS = "staff:ops@example.com";
const ops = { actor: OPS, role: "ops" } as const;
const delivered: typeof fetch = async () => new Response("ok", { status: 200 });

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

/** A money case whose refund ops asked for on a product without a webhook; the relay has run over it. */
async function unsentRefund(): Promise<{ caseId: number; orderId: number; refundId: string }> {
  const { caseId, order } = await paymentAfterClose(TENANT);
  const asked = await resolveMoneyCase({ caseId, actor: OPS, role: "ops", offer: "refund", reason: "paid after the timeout", requestKey: randomUUID() });
  if (asked.result !== "refund-requested") throw new Error(`expected a refund, got ${asked.result}`);
  expect(asked.webhookSet).toBe(false);
  await relayOutbox({ fetch: delivered });
  return { caseId, orderId: order.id, refundId: asked.refundId };
}

const queued = async (caseId: number, viewer: Viewer = ops) => (await loadCaseQueue([TENANT], { viewer })).items.find((c) => c.id === caseId)!;
const auditOf = (refundId: string) =>
  rows(
    getPool(),
    z.object({ action: z.string(), actor: z.string(), detail: z.record(z.string(), z.unknown()) }),
    `SELECT action, actor, detail FROM audit_events WHERE target = $1 ORDER BY id`,
    [`refund:${refundId}`],
  );
const refundStatus = async (refundId: string) =>
  (await rows(getPool(), z.object({ status: z.string() }), `SELECT status FROM payment_refunds WHERE refund_id = $1`, [refundId]))[0]!.status;
const problemOf = (e: unknown) => (e instanceof AppError ? e.problem : e);

describe("a channel refund on a product without a webhook", () => {
  it("the case, the queue and the overview say it has not reached the channel, and why — never 'with the channel'", async () => {
    const { caseId, orderId, refundId } = await unsentRefund();
    // The relay's note on the message is the fact: nothing was sent.
    const notes = await rows(getPool(), z.object({ status: z.string(), lastError: z.string().nullable() }), `SELECT status, last_error AS "lastError" FROM outbox_messages WHERE topic = 'refund.requested' AND payload ->> 'refundId' = $1`, [refundId]);
    expect(notes).toEqual([{ status: "delivered", lastError: NO_WEBHOOK }]);

    const view = await queued(caseId);
    expect(view.refunds.map((r) => [r.refundId, r.status, r.reach])).toEqual([[refundId, "requested", { kind: "not-sent", why: { kind: "no-webhook" } }]]);
    expect(view.controls.blocked).toEqual({ kind: "case-refund-not-sent", refundId, why: "no-webhook" });
    expect(view.controls.refund).toEqual({ refundId, resend: "needs-webhook", recordTold: true });
    // The order page's case reads the same facts the same way.
    const [onOrder] = await loadOrderCases(TENANT, orderId, ops);
    expect(onOrder!.refunds[0]!.reach).toEqual(view.refunds[0]!.reach);

    const overview = await unsentRefundCounts([TENANT]);
    expect(overview.find((u) => u.tenantId === TENANT)).toMatchObject({ why: { "no-webhook": expect.any(Number) } });
  });

  it("record that the channel was told another way: the refund is then with the channel, one audit fact, the same click twice changes nothing", async () => {
    const { caseId, refundId } = await unsentRefund();
    const tell = () => actOnCaseRefund({ tenantId: TENANT, caseId, refundId, action: "record-told", actor: OPS, role: "ops", reason: "asked for it in the Alipay merchant portal" });
    const [first, second] = await Promise.all([tell(), tell()]);
    expect([first.result, second.result].sort()).toEqual(["duplicate", "told"]);
    expect(await refundStatus(refundId)).toBe("sent");
    const told = (await auditOf(refundId)).filter((f) => f.action === "refund.sent");
    expect(told).toEqual([{ action: "refund.sent", actor: OPS, detail: expect.objectContaining({ means: "other", reason: "asked for it in the Alipay merchant portal", caseId }) }]);

    const view = await queued(caseId);
    expect(view.refunds[0]!.reach).toMatchObject({ kind: "with-channel", via: "other", by: OPS, reason: "asked for it in the Alipay merchant portal" });
    expect(view.controls.blocked).toEqual({ kind: "case-awaiting-refund", refundId });
    expect(view.controls.refund).toBeNull();
    // The channel's answer settles it as usual and resolves the case.
    expect(await applyRefundEvent({ tenantId: TENANT, refundId, event: "confirm", bizKey: "ALIPAY-RF-1", actor: "apikey:channel" })).toMatchObject({ result: "applied", caseResolved: true });
  });

  it("record-told needs a reason; an agent cannot work the case at all and is told who can", async () => {
    const { caseId, refundId } = await unsentRefund();
    await expect(actOnCaseRefund({ tenantId: TENANT, caseId, refundId, action: "record-told", actor: OPS, role: "ops", reason: null })).rejects.toMatchObject({ code: "invalid-input" });
    const agent = await queued(caseId, { actor: "staff:agent@example.com", role: "agent" });
    expect(agent.controls).toEqual({ take: false, assign: false, offers: [], refund: null, blocked: { kind: "cases-not-for-role", roles: ["ops", "manager"] } });
    expect((await loadCaseQueue([TENANT], { viewer: { actor: "staff:agent@example.com", role: "agent" } })).viewerWorks).toBe(false);
    expect(await refundStatus(refundId)).toBe("requested");
  });

  it("resend is refused until a webhook is configured; then it sends once, and the relay's delivery puts the refund with the channel", async () => {
    const { caseId, refundId } = await unsentRefund();
    const resend = () => actOnCaseRefund({ tenantId: TENANT, caseId, refundId, action: "resend", actor: OPS, role: "ops", reason: null });
    expect(problemOf(await resend().catch((e: unknown) => e))).toEqual({ kind: "refund-needs-webhook", refundId });

    await execute(getPool(), `UPDATE tenant_settings SET webhook_url = 'https://channel.example.com/hooks' WHERE tenant_id = $1`, [TENANT]);
    try {
      expect((await queued(caseId)).controls.refund).toEqual({ refundId, resend: "ready", recordTold: true });
      const [a, b] = await Promise.all([resend(), resend()]);
      expect([a.result, b.result].sort()).toEqual(["duplicate", "resent"]);
      const messages = await rows(getPool(), z.object({ status: z.string() }), `SELECT status FROM outbox_messages WHERE topic = 'refund.requested' AND payload ->> 'refundId' = $1 ORDER BY id`, [refundId]);
      expect(messages.map((m) => m.status)).toEqual(["delivered", "pending"]);
      expect((await queued(caseId)).refunds[0]!.reach).toEqual({ kind: "on-its-way", attempts: 0, failure: null });
      expect((await queued(caseId)).controls.blocked).toEqual({ kind: "case-refund-sending", refundId });

      await relayOutbox({ fetch: delivered });
      expect(await refundStatus(refundId)).toBe("sent");
      expect((await auditOf(refundId)).map((f) => [f.action, f.actor])).toEqual([
        ["refund.requested", OPS],
        ["refund.resent", OPS],
        ["refund.sent", "system:outbox-relay"],
      ]);
      expect((await queued(caseId)).refunds[0]!.reach).toEqual({ kind: "with-channel", via: "webhook" });
    } finally {
      await execute(getPool(), `UPDATE tenant_settings SET webhook_url = NULL WHERE tenant_id = $1`, [TENANT]);
    }
  });

  it("a request the relay gave up on says how the webhook failed, and can be resent", async () => {
    const { caseId, refundId } = await unsentRefund();
    await execute(getPool(), `UPDATE outbox_messages SET status = 'dead', attempts = 15, last_error = 'HTTP 502: bad gateway' WHERE topic = 'refund.requested' AND payload ->> 'refundId' = $1`, [refundId]);
    await execute(getPool(), `UPDATE tenant_settings SET webhook_url = 'https://channel.example.com/hooks' WHERE tenant_id = $1`, [TENANT]);
    try {
      const view = await queued(caseId);
      expect(view.refunds[0]!.reach).toEqual({ kind: "not-sent", why: { kind: "gave-up", attempts: 15, failure: { kind: "http", status: 502 } } });
      expect(view.controls.refund).toEqual({ refundId, resend: "ready", recordTold: true });
    } finally {
      await execute(getPool(), `UPDATE tenant_settings SET webhook_url = NULL WHERE tenant_id = $1`, [TENANT]);
    }
  });
});
