import { describe, expect, it } from "vitest";
import type { CaseFacts } from "./facts";
import { caseControls, legalOffers } from "./offers";
import { explainCase } from "./explain";

const base: CaseFacts = {
  id: 7,
  tenantId: "xiaoxiao",
  orderId: 70,
  kind: "payment-after-close",
  event: "pay",
  bizKey: "alipay-2026120310000001",
  amount: 18_00,
  currency: "CNY",
  detail: { refusal: { kind: "terminal-state", state: "closed", event: "pay" }, state: "closed" },
  actor: "channel:alipay",
  status: "open",
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
  related: { event: "close", bizKey: "timeout", source: "job", actor: "system:timeout-close", at: "2026-12-03T10:00:00.000Z" },
  lines: null,
  refunds: [],
  reservedOfPayment: 0,
  takeBack: null,
  webhookSet: true,
};
const kinds = (c: CaseFacts) => legalOffers(c).map((o) => o.kind);
const ops = { actor: "staff:ops@example.com", role: "ops" } as const;

describe("legalOffers: each way out only where it is possible", () => {
  it("a payment after close can be refunded in full or honoured", () => {
    expect(legalOffers(base)).toEqual([{ kind: "refund", amount: 18_00, currency: "CNY" }, { kind: "honour" }, { kind: "dismiss" }]);
  });

  it("honouring needs the order's exact price and an untouched payment", () => {
    expect(kinds({ ...base, amount: 17_00 })).toEqual(["refund", "dismiss"]);
    expect(legalOffers({ ...base, reservedOfPayment: 5_00 })).toEqual([{ kind: "refund", amount: 13_00, currency: "CNY" }, { kind: "dismiss" }]);
  });

  it("nothing but waiting while a refund is with the channel; nothing at all once closed", () => {
    const pending = { refundId: "rf-1", amount: 18_00, status: "sent", channelRef: null, requestedBy: "staff:ops@example.com", createdAt: "", updatedAt: "", message: null, told: null } as const;
    expect(kinds({ ...base, refunds: [pending] })).toEqual([]);
    expect(kinds({ ...base, refunds: [{ ...pending, status: "failed", channelRef: "no" }] })).toEqual(["refund", "honour", "dismiss"]);
    expect(kinds({ ...base, status: "resolved" })).toEqual([]);
  });

  it("an overpayment on an unpaid order: accept and refund the difference, or refund all; once accepted, only the difference", () => {
    const over: CaseFacts = {
      ...base,
      kind: "amount-mismatch",
      amount: 33_00,
      detail: { refusal: { kind: "amount-mismatch", paid: 33_00, expected: 30_00, currency: "CNY" } },
      order: { ...base.order!, state: "created", amount: 30_00 },
      related: null,
    };
    expect(legalOffers(over)).toEqual([
      { kind: "accept-and-refund-difference", amount: 3_00, currency: "CNY" },
      { kind: "refund", amount: 33_00, currency: "CNY" },
      { kind: "dismiss" },
    ]);
    const accepted = { ...over, order: { ...over.order!, state: "paid" as const }, related: { ...base.related!, event: "pay" as const, bizKey: over.bizKey } };
    expect(kinds(accepted)).toEqual(["accept-and-refund-difference", "dismiss"]);
    // Underpaid: the money goes back.
    expect(kinds({ ...over, amount: 3_00 })).toEqual(["refund", "dismiss"]);
  });

  it("goods: repair or compensate while the order can still take grants and a line is pending", () => {
    const goods: CaseFacts = {
      ...base,
      kind: "delivery-incomplete",
      amount: null,
      bizKey: "ticket-1",
      order: { ...base.order!, state: "delivering" },
      lines: [{ sku: "coins", kind: "currency", expected: 320, granted: 200, pending: 120 }],
    };
    expect(legalOffers(goods)).toEqual([{ kind: "repair" }, { kind: "compensate", lines: [{ sku: "coins", quantity: 120 }] }, { kind: "dismiss" }]);
    expect(kinds({ ...goods, order: { ...goods.order!, state: "refunding" } })).toEqual(["dismiss"]);
    expect(kinds({ ...goods, kind: "delivery-failed", bizKey: "unrecorded:deliver:XX1:coins:0" })).toEqual(["dismiss"]);
  });

  it("a failed take-back: retry the call only while its take_backs row is failed", () => {
    const takeBack: CaseFacts = { ...base, kind: "take-back-failed", event: null, amount: null, bizKey: "take-back:31", related: null, takeBack: { id: 31, status: "failed", endpoint: "revoke", endpointSet: true, attempts: 1, lastError: "HTTP 500: down" } };
    expect(legalOffers(takeBack)).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: true }, { kind: "dismiss" }]);
    expect(kinds({ ...takeBack, takeBack: { ...takeBack.takeBack!, status: "pending" } })).toEqual(["dismiss"]);
    expect(kinds({ ...takeBack, takeBack: null })).toEqual(["dismiss"]);
    // Only a take-back-failed case retries a row, whatever its facts say.
    expect(kinds({ ...takeBack, kind: "store-partial-refund" })).toEqual(["dismiss"]);
  });
});

describe("caseControls: what the viewer may do", () => {
  it("agents see, ops work, only managers dismiss money or work someone else's case", () => {
    // An agent is told who works cases (issue 29), not left with an empty Actions cell; on a closed case there is nothing to say.
    const toAgent = { take: false, assign: false, offers: [], refund: null, blocked: { kind: "cases-not-for-role", roles: ["ops", "manager"] } };
    expect(caseControls(base, { actor: "staff:agent@example.com", role: "agent" })).toEqual(toAgent);
    expect(caseControls({ ...base, kind: "delivery-incomplete" }, { actor: "staff:agent@example.com", role: "agent" })).toEqual(toAgent);
    expect(caseControls({ ...base, status: "resolved" }, { actor: "staff:agent@example.com", role: "agent" }).blocked).toBeNull();
    expect(caseControls(base, ops).offers.map((o) => o.kind)).toEqual(["refund", "honour"]);
    expect(caseControls(base, { actor: "staff:m@example.com", role: "manager" }).offers.map((o) => o.kind)).toEqual(["refund", "honour", "dismiss"]);
    const theirs = { ...base, status: "in-progress" as const, owner: "staff:ann@example.com" };
    expect(caseControls(theirs, ops)).toEqual({ take: false, assign: true, offers: [], refund: null, blocked: { kind: "case-taken", owner: "ann@example.com" } });
    expect(caseControls(theirs, { actor: "staff:m@example.com", role: "manager" }).take).toBe(true);
  });
});

describe("explainCase: the facts a person needs, per kind", () => {
  it("a payment after close: who closed it, and how long before the money came", () => {
    expect(explainCase(base)).toEqual({ kind: "payment-after-close", paid: 18_00, currency: "CNY", txn: "alipay-2026120310000001", closedBy: "timeout", secondsAfter: 180 });
  });

  it("a failing grant endpoint: the line's progress and the last answer", () => {
    const failed: CaseFacts = {
      ...base,
      kind: "delivery-failed",
      bizKey: "coordinator",
      amount: null,
      detail: { attempts: 4, lastError: "HTTP 503: busy, try later", sku: "coins", nextAttemptAt: "2026-12-03T10:20:00.000Z" },
      lines: [{ sku: "coins", kind: "currency", expected: 320, granted: 200, pending: 120 }],
    };
    expect(explainCase(failed)).toEqual({
      kind: "delivery-failed",
      sku: "coins",
      granted: 200,
      expected: 320,
      attempts: 4,
      failure: { kind: "http", status: 503 },
      nextAttemptAt: "2026-12-03T10:20:00.000Z",
    });
  });

  it("a detail its writer would not write is explained as what it is, not guessed at", () => {
    expect(explainCase({ ...base, kind: "delivery-incomplete", detail: {} })).toEqual({ kind: "other", caseKind: "delivery-incomplete" });
  });
});
