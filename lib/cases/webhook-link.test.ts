// A case whose refund never left for want of a webhook links to the product's webhook setting,
// for those who may set it (issue 29). Pure.
import { describe, expect, it } from "vitest";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import type { CaseFacts, CaseRefund } from "./facts";
import { caseControls } from "./offers";

const unsent: CaseRefund = {
  refundId: "rf-1",
  amount: 18_00,
  status: "requested",
  channelRef: null,
  requestedBy: "staff:ops@example.com",
  createdAt: "2026-12-05T01:00:00.000Z",
  updatedAt: "2026-12-05T01:00:00.000Z",
  message: { id: 9, status: "delivered", attempts: 0, lastError: NO_WEBHOOK },
  told: null,
};
const facts: CaseFacts = {
  id: 7,
  tenantId: "xiaoxiao",
  orderId: 70,
  kind: "payment-after-close",
  event: "pay",
  bizKey: "alipay-2026120310000001",
  amount: 18_00,
  currency: "CNY",
  detail: {},
  actor: "channel:alipay",
  status: "in-progress",
  owner: null,
  takenAt: null,
  createdAt: "2026-12-03T10:03:00.000Z",
  slaDueAt: "2026-12-03T14:03:00.000Z",
  ageSeconds: 600,
  dueInSeconds: 13_800,
  resolution: null,
  resolutionRef: null,
  resolvedReason: null,
  resolvedAt: null,
  resolvedBy: null,
  order: { orderNo: "XX1", state: "closed", amount: 18_00, currency: "CNY", playerId: "p-1" },
  related: null,
  lines: null,
  refunds: [unsent],
  reservedOfPayment: 18_00,
  takeBack: null,
  webhookSet: false,
};
const manager = { actor: "staff:manager@example.com", role: "manager" } as const;
const ops = { actor: "staff:ops@example.com", role: "ops" } as const;

describe("a refund not sent for want of a webhook", () => {
  it("links a manager, who may set the webhook, to it", () => {
    expect(caseControls(facts, manager).refund).toEqual({ refundId: "rf-1", resend: "needs-webhook", recordTold: true, configureWebhook: true });
  });

  it("does not link ops, who may not edit settings; they still record how the channel was told", () => {
    expect(caseControls(facts, ops).refund).toEqual({ refundId: "rf-1", resend: "needs-webhook", recordTold: true });
  });

  it("has no link once a webhook is set: the refund can be resent", () => {
    expect(caseControls({ ...facts, webhookSet: true }, manager).refund).toEqual({ refundId: "rf-1", resend: "ready", recordTold: true });
  });
});
