// Where a channel refund stands (issue 29): read from its outbox message and the product's webhook,
// never from its status alone. Pure.
import { describe, expect, it } from "vitest";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import type { CaseRefund } from "./facts";
import { pendingRefundProblem, refundControls, refundReach } from "./refund-reach";

const requested = (message: CaseRefund["message"]): CaseRefund => ({
  refundId: "rf-1",
  amount: 18_00,
  status: "requested",
  channelRef: null,
  requestedBy: "staff:ops@example.com",
  createdAt: "2026-12-05T01:00:00.000Z",
  updatedAt: "2026-12-05T01:00:00.000Z",
  message,
  told: null,
});
const noted = requested({ id: 9, status: "delivered", attempts: 0, lastError: NO_WEBHOOK });

describe("refundReach", () => {
  it("a request the relay noted 'no webhook configured' never left: not sent, and why", () => {
    expect(refundReach(noted, false)).toEqual({ kind: "not-sent", why: { kind: "no-webhook" } });
    // Configuring the webhook later does not replay it: still not sent until someone resends.
    expect(refundReach(noted, true)).toEqual({ kind: "not-sent", why: { kind: "no-webhook" } });
    expect(pendingRefundProblem(noted, false)).toEqual({ kind: "case-refund-not-sent", refundId: "rf-1", why: "no-webhook" });
  });

  it("a pending request with no webhook to carry it will be noted so: not sent already", () => {
    expect(refundReach(requested({ id: 9, status: "pending", attempts: 0, lastError: null }), false)).toEqual({ kind: "not-sent", why: { kind: "no-webhook" } });
    expect(refundReach(requested({ id: 9, status: "pending", attempts: 0, lastError: null }), true)).toEqual({ kind: "on-its-way", attempts: 0, failure: null });
  });

  it("retrying and dead messages say how the webhook failed", () => {
    expect(refundReach(requested({ id: 9, status: "pending", attempts: 3, lastError: "HTTP 503: busy" }), true)).toEqual({
      kind: "on-its-way",
      attempts: 3,
      failure: { kind: "http", status: 503 },
    });
    expect(refundReach(requested({ id: 9, status: "dead", attempts: 15, lastError: "timed out after 10000 ms" }), true)).toEqual({
      kind: "not-sent",
      why: { kind: "gave-up", attempts: 15, failure: { kind: "timeout", seconds: 10 } },
    });
    expect(refundReach(requested(null), true)).toEqual({ kind: "not-sent", why: { kind: "no-message" } });
  });

  it("only a delivered request or a sent refund is with the channel; told another way says by whom", () => {
    expect(refundReach(requested({ id: 9, status: "delivered", attempts: 1, lastError: null }), true)).toEqual({ kind: "with-channel", via: "webhook" });
    expect(refundReach({ ...noted, status: "sent" }, false)).toEqual({ kind: "with-channel", via: "webhook" });
    const told = { actor: "staff:ops@example.com", reason: "asked in the merchant portal", at: "2026-12-05T02:00:00.000Z" };
    expect(refundReach({ ...noted, status: "sent", told }, false)).toEqual({ kind: "with-channel", via: "other", by: told.actor, reason: told.reason, at: told.at });
    expect(pendingRefundProblem({ ...noted, status: "sent" }, false)).toEqual({ kind: "case-awaiting-refund", refundId: "rf-1" });
    expect(refundReach({ ...noted, status: "confirmed", channelRef: "R" }, false)).toEqual({ kind: "answered" });
  });
});

describe("refundControls", () => {
  it("not sent: record how the channel was told; resend once a webhook can carry it", () => {
    expect(refundControls(noted, false)).toEqual({ refundId: "rf-1", resend: "needs-webhook", recordTold: true });
    expect(refundControls(noted, true)).toEqual({ refundId: "rf-1", resend: "ready", recordTold: true });
  });

  it("on its way: nothing while it is fresh; record-told while the webhook keeps failing; nothing once with the channel", () => {
    expect(refundControls(requested({ id: 9, status: "pending", attempts: 0, lastError: null }), true)).toBeNull();
    expect(refundControls(requested({ id: 9, status: "pending", attempts: 2, lastError: "HTTP 500" }), true)).toEqual({ refundId: "rf-1", resend: null, recordTold: true });
    expect(refundControls({ ...noted, status: "sent" }, true)).toBeNull();
  });
});
