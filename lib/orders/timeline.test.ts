import { describe, expect, it } from "vitest";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import { outboxDelivery } from "@/lib/outbox/delivery-status";
import { countByKind, exceptionClosing, mergeTimeline, outboxRecipient, type TimelineSources } from "./timeline";

const t = (seconds: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, seconds));

const EMPTY: TimelineSources = { transitions: [], grants: [], approvals: [], allExceptions: [], outbox: [], notes: [], auditFacts: [] };

/** An order's life: paid, delivered, refund asked for and approved, reversed, a webhook retried, notes. */
const ORDER: TimelineSources = {
  transitions: [
    { id: 1, event: "pay", from: "created", to: "paid", bizKey: "wx-1", actor: "channel:wechat", source: "callback", reason: null, at: t(0) },
    { id: 2, event: "begin-delivery", from: "paid", to: "delivering", bizKey: "", actor: "game:server", source: "api", reason: null, at: t(10) },
    { id: 3, event: "confirm-delivery", from: "delivering", to: "delivered", bizKey: "", actor: "game:server", source: "api", reason: null, at: t(20) },
    // Approved by a manager: the decision and this transition are one transaction.
    { id: 4, event: "request-refund", from: "delivered", to: "refunding", bizKey: "approval:7", actor: "staff:manager@example.com", source: "console", reason: "accidental", at: t(40) },
    // confirm-refund and its reversal: one transaction, one timestamp.
    { id: 5, event: "confirm-refund", from: "refunding", to: "refunded", bizKey: "rf-1", actor: "channel:wechat", source: "callback", reason: null, at: t(50) },
  ],
  grants: [
    { id: 11, sku: "gems-60", grantId: "g-1", quantity: 60, source: "api", actor: "game:server", reason: null, at: t(15) },
    { id: 12, sku: "gems-60", grantId: "refund:rf-1", quantity: -60, source: "callback", actor: "channel:wechat", reason: "revoke: refund confirmed", at: t(50) },
  ],
  approvals: [
    {
      id: 7,
      requestedBy: "staff:agent@example.com",
      reason: "player says it was accidental",
      amount: 12_800,
      status: "approved",
      decidedBy: "staff:manager@example.com",
      decisionReason: "accidental",
      decidedAt: t(40),
      createdAt: t(30),
    },
  ],
  allExceptions: [
    { id: 21, kind: "second-payment", event: "pay", bizKey: "wx-2", amount: 12_800, detail: {}, actor: "channel:wechat", status: "resolved", createdAt: t(5), resolvedAt: t(45), resolvedBy: "staff:ops@example.com" },
  ],
  outbox: [
    { id: 31, topic: "order.transitioned", status: "delivered", attempts: 1, lastError: null, createdAt: t(0), deliveredAt: t(1) },
    { id: 35, topic: "order.transitioned", status: "pending", attempts: 3, lastError: "HTTP 503", createdAt: t(50), deliveredAt: null },
  ],
  notes: [
    { id: 41, author: "staff:agent@example.com", body: "Player called", correctsId: null, at: t(25) },
    { id: 42, author: "staff:agent@example.com", body: "Correction: it was the skin", correctsId: 41, at: t(26) },
  ],
  auditFacts: [
    { id: 51, action: "approval.requested", actor: "staff:agent@example.com", target: "approval:7", detail: { approvalId: 7, amount: 12_800, reason: "player says it was accidental" }, at: t(30) },
    { id: 52, action: "approval.approved", actor: "staff:manager@example.com", target: "approval:7", detail: { approvalId: 7, requestedBy: "staff:agent@example.com", reason: "accidental" }, at: t(40) },
    { id: 53, action: "settings.updated", actor: "staff:boss@example.com", target: "tenant:x", detail: { reason: "late" }, at: t(60) },
  ],
};

describe("mergeTimeline", () => {
  it("merges every source into one list, newest first", () => {
    expect(mergeTimeline(ORDER).map((e) => e.key)).toEqual([
      "e:53",
      // One transaction at t(50): the message it queued, the reversal, then the transition.
      "o:35",
      "g:12",
      "t:5",
      "x:21:resolved",
      // The decision and the transition it requested share t(40): the transition is its consequence.
      "t:4",
      "a:7:decided",
      "a:7:requested",
      "n:42",
      "n:41",
      "t:3",
      "g:11",
      "t:2",
      "x:21:filed",
      // Delivered a second after it was queued: placed at its delivery.
      "o:31",
      "t:1",
    ]);
  });

  it("words each kind's facts: who, from where, why", () => {
    const byKey = Object.fromEntries(mergeTimeline(ORDER).map((e) => [e.key, e]));
    expect(byKey["g:12"]).toMatchObject({ kind: "grant", actor: "channel:wechat", source: "callback", reason: "revoke: refund confirmed", quantity: -60, grantId: "refund:rf-1" });
    expect(byKey["a:7:requested"]).toMatchObject({ kind: "approval", step: "requested", actor: "staff:agent@example.com", reason: "player says it was accidental", amount: 12_800, status: "approved" });
    expect(byKey["a:7:decided"]).toMatchObject({ kind: "approval", step: "approved", actor: "staff:manager@example.com", reason: "accidental", requestedBy: "staff:agent@example.com", refusal: null });
    expect(byKey["x:21:resolved"]).toMatchObject({ kind: "exception", step: "resolved", actor: "staff:ops@example.com", exceptionKind: "second-payment" });
    expect(byKey["o:35"]).toMatchObject({ kind: "outbox", actor: null, status: "pending", attempts: 3, lastError: "HTTP 503", queuedAt: t(50) });
    expect(byKey["n:41"]).toMatchObject({ kind: "note", number: 1, correctedBy: [{ id: 42, number: 2 }], correctsId: null, correctsNumber: null });
    expect(byKey["n:42"]).toMatchObject({ kind: "note", number: 2, correctedBy: [], correctsId: 41, correctsNumber: 1 });
    expect(byKey["e:53"]).toMatchObject({ kind: "action", action: "settings.updated", reason: "late" });
  });

  it("shows an approval once: its audit facts fold into the approval's row, adding a refusal kept only there", () => {
    const refusal = { kind: "stale-state", expected: "delivered", actual: "refunding" };
    const entries = mergeTimeline({
      ...ORDER,
      approvals: [{ ...ORDER.approvals[0]!, status: "rejected" }],
      auditFacts: [ORDER.auditFacts[0]!, { ...ORDER.auditFacts[1]!, action: "approval.rejected", detail: { ...ORDER.auditFacts[1]!.detail, refusal } }],
    });
    expect(entries.filter((e) => e.kind === "action")).toEqual([]);
    expect(entries.find((e) => e.key === "a:7:decided")).toMatchObject({ step: "rejected", refusal });
    // A pending request has no decision yet.
    const pending = mergeTimeline({ ...EMPTY, approvals: [{ ...ORDER.approvals[0]!, status: "pending", decidedAt: null, decidedBy: null }] });
    expect(pending.map((e) => e.key)).toEqual(["a:7:requested"]);
  });

  it("keeps ties stable: the same kind at one instant by row id, newest first", () => {
    const at = t(0);
    const entries = mergeTimeline({
      ...EMPTY,
      grants: [3, 1, 2].map((id) => ({ id, sku: `s${id}`, grantId: `g${id}`, quantity: 1, source: "api", actor: "game:server", reason: null, at })),
      notes: [{ id: 9, author: "a", body: "b", correctsId: null, at }],
    });
    expect(entries.map((e) => e.key)).toEqual(["n:9", "g:3", "g:2", "g:1"]);
    expect(mergeTimeline(EMPTY)).toEqual([]);
  });

  it("never calls a message delivered that the relay did not send (its tenant has no webhook)", () => {
    const message = { topic: "order.transitioned", createdAt: t(0), deliveredAt: t(1) };
    const entries = mergeTimeline({
      ...EMPTY,
      outbox: [
        { ...message, id: 1, status: "delivered", attempts: 0, lastError: NO_WEBHOOK },
        { ...message, id: 2, status: "delivered", attempts: 2, lastError: null },
      ],
    });
    expect(entries.map((e) => (e.kind === "outbox" ? [e.messageId, e.delivery] : null))).toEqual([
      [2, "delivered"],
      [1, "no-webhook"],
    ]);
    expect(outboxDelivery({ status: "pending", attempts: 0, lastError: null })).toBe("queued");
    expect(outboxDelivery({ status: "pending", attempts: 2, lastError: "HTTP 503" })).toBe("retrying");
    expect(outboxDelivery({ status: "dead", attempts: 15, lastError: "HTTP 503" })).toBe("dead");
  });

  it("tells a dismissed case from a resolved one, with the reason and the way out from the fact that closed it", () => {
    const filed = { event: null, bizKey: "", amount: null, detail: {}, actor: "system:delivery", createdAt: t(0), resolvedBy: "staff:ops@example.com" };
    const entries = mergeTimeline({
      ...EMPTY,
      allExceptions: [
        { ...filed, id: 1, kind: "delivery-failed", status: "dismissed", resolvedAt: t(10) },
        { ...filed, id: 2, kind: "second-payment", status: "resolved", resolvedAt: t(20) },
        // Reopened after it was dismissed: open again, so nothing closed it (yet).
        { ...filed, id: 3, kind: "delivery-failed", status: "open", resolvedAt: null },
      ],
      auditFacts: [
        { id: 70, action: "case.dismissed", actor: "staff:ops@example.com", target: "case:1", detail: { caseId: 1, kind: "delivery-failed", resolution: null, reason: "game fixed it by hand" }, at: t(10) },
        { id: 71, action: "case.resolved", actor: "staff:ops@example.com", target: "case:2", detail: { caseId: 2, kind: "second-payment", resolution: "refund", reason: "paid twice" }, at: t(20) },
        { id: 72, action: "case.dismissed", actor: "staff:ops@example.com", target: "case:3", detail: { caseId: 3, kind: "delivery-failed", resolution: null, reason: "first try" }, at: t(5) },
        { id: 73, action: "case.reopened", actor: "system:delivery", target: "case:3", detail: { caseId: 3, kind: "delivery-failed" }, at: t(6) },
      ],
    });
    const byKey = Object.fromEntries(entries.map((e) => [e.key, e]));
    expect(byKey["x:1:dismissed"]).toMatchObject({ kind: "exception", step: "dismissed", actor: "staff:ops@example.com", reason: "game fixed it by hand", resolution: null });
    expect(byKey["x:1:resolved"]).toBeUndefined();
    expect(byKey["x:2:resolved"]).toMatchObject({ kind: "exception", step: "resolved", reason: "paid twice", resolution: "refund" });
    // The facts that closed cases 1 and 2 are their closing entries; case 3's earlier dismissal and
    // its reopening stay facts of their own.
    expect(entries.filter((e) => e.kind === "action").map((e) => e.key)).toEqual(["e:73", "e:72"]);
    expect(entries.filter((e) => e.key.startsWith("x:3:")).map((e) => e.key)).toEqual(["x:3:filed"]);
    expect(exceptionClosing({ status: "in-progress", resolvedAt: null })).toBeNull();
  });

  it("numbers notes per order, whatever their ids across every order", () => {
    const note = { author: "staff:agent@example.com", body: "b", at: t(0) };
    const entries = mergeTimeline({ ...EMPTY, notes: [{ ...note, id: 907, correctsId: null }, { ...note, id: 1203, correctsId: 907 }] });
    expect(entries.map((e) => (e.kind === "note" ? [e.noteId, e.number, e.correctsNumber] : null))).toEqual([
      [1203, 2, 1],
      [907, 1, null],
    ]);
  });

  it("says who a message goes to: the webhook, the payment channel or the store", () => {
    const message = { status: "pending", attempts: 2, lastError: "HTTP 503", createdAt: t(0), deliveredAt: null };
    const entries = mergeTimeline({
      ...EMPTY,
      outbox: [
        { ...message, id: 1, topic: "order.transitioned" },
        { ...message, id: 2, topic: "refund.requested" },
        { ...message, id: 3, topic: "store.refund-review-answer" },
      ],
    });
    expect(entries.map((e) => (e.kind === "outbox" ? [e.topic, e.recipient] : null))).toEqual([
      ["store.refund-review-answer", "store"],
      ["refund.requested", "channel"],
      ["order.transitioned", "webhook"],
    ]);
    expect(outboxRecipient("order.granted")).toBe("webhook");
  });

  it("counts entries per kind for the filter", () => {
    expect(countByKind(mergeTimeline(ORDER))).toEqual({ transition: 5, grant: 2, approval: 2, exception: 2, outbox: 2, note: 2, action: 1 });
  });
});
