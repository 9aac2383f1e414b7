import { describe, expect, it } from "vitest";
import { paymentOf } from "./payment";
import { eventsOffered, pendingApproval, refundNeedsApprovalOf, refusedRefunds, type ApprovalFacts } from "./refund-history";
import type { TransitionRecord } from "./types";

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 3, 9, minutes));
const approval = (id: number, status: string, minutes: number): ApprovalFacts => ({
  id,
  status,
  requestedBy: "staff:agent@example.com",
  reason: "player asked",
  createdAt: at(minutes),
  decidedBy: status === "pending" ? null : "staff:manager@example.com",
  decisionReason: status === "rejected" ? "items already used" : null,
  decidedAt: status === "pending" ? null : at(minutes + 1),
});
const transition = (id: number, event: TransitionRecord["event"], actor: string, bizKey: string, minutes: number): TransitionRecord => ({
  id,
  event,
  from: "paid",
  to: "paid",
  bizKey,
  actor,
  source: "callback",
  reason: event === "reject-refund" ? "outside the refund window" : null,
  at: at(minutes),
});

describe("refund history", () => {
  it("names the request waiting for a manager, if any", () => {
    expect(pendingApproval([approval(1, "rejected", 0), approval(2, "pending", 10)])).toEqual({ id: 2, requestedBy: "staff:agent@example.com", reason: "player asked", at: at(10) });
    expect(pendingApproval([approval(1, "approved", 0)])).toBeNull();
  });

  it("lists every refused refund, by a manager or by the channel, newest first; approved ones are not refusals", () => {
    const refused = refusedRefunds(
      [approval(1, "rejected", 0), approval(2, "approved", 5), approval(3, "pending", 30)],
      [transition(7, "pay", "channel:alipay", "ali-1", 0), transition(8, "reject-refund", "channel:alipay", "ali-r-9", 20)],
    );
    expect(refused).toEqual([
      { kind: "channel-rejected", transitionId: 8, at: at(20), channel: "alipay", reason: "outside the refund window", receipt: "ali-r-9" },
      { kind: "approval-rejected", approvalId: 1, at: at(1), by: "staff:manager@example.com", reason: "items already used", requestedBy: "staff:agent@example.com" },
    ]);
  });

  // Issue 29, item 11: a refusal staff recorded was "Refused by the channel (staff:ops@…)".
  it("tells a refusal staff recorded from one the channel sent", () => {
    const refused = refusedRefunds(
      [],
      [transition(8, "reject-refund", "staff:ops@example.com", "ali-r-9", 20), transition(9, "reject-refund", "apikey:xiaoxiao/wechat", "wx-r-1", 30)],
    );
    expect(refused).toEqual([
      { kind: "channel-rejected", transitionId: 9, at: at(30), channel: "wechat", reason: "outside the refund window", receipt: "wx-r-1" },
      { kind: "staff-rejected", transitionId: 8, at: at(20), by: "staff:ops@example.com", reason: "outside the refund window", receipt: "ali-r-9" },
    ]);
  });

  // Issue 29, item 12: said before Confirm, and not offered while a request waits.
  it("says whether a refund needs a manager, and offers no second request while one waits", () => {
    expect(refundNeedsApprovalOf(10_001, 10_000)).toBe(true);
    expect(refundNeedsApprovalOf(10_000, 10_000)).toBe(false);
    expect(refundNeedsApprovalOf(1_000_000, null)).toBe(false);
    const waiting = pendingApproval([approval(3, "pending", 30)]);
    expect(eventsOffered(["request-refund", "close"], waiting)).toEqual(["close"]);
    expect(eventsOffered(["request-refund", "close"], null)).toEqual(["request-refund", "close"]);
  });

  it("reads the payment channel and its transaction id from the pay transition", () => {
    expect(paymentOf([transition(8, "begin-delivery", "game:server", "", 2), transition(7, "pay", "channel:alipay", "ali-1", 1)])).toEqual({
      channel: "alipay",
      actor: "channel:alipay",
      recordedByStaff: false,
      transactionId: "ali-1",
      at: at(1),
      honours: null,
    });
    expect(paymentOf([transition(7, "pay", "staff:ops@example.com", "wx-42", 1)])).toMatchObject({ channel: null, recordedByStaff: true, transactionId: "wx-42" });
    // Issue 29, item 16: an honoured late payment names the channel that sent it, and the order it reached first.
    const origin = { orderNo: "XX20261203000001", caseId: 12, sentBy: "channel:wechat" };
    expect(paymentOf([transition(7, "pay", "staff:ops@example.com", "wx-44", 1)], origin)).toMatchObject({
      channel: "wechat",
      actor: "staff:ops@example.com",
      recordedByStaff: true,
      honours: origin,
    });
    expect(paymentOf([transition(7, "pay", "apikey:xiaoxiao/wechat", "wx-43", 1)])).toMatchObject({ channel: "wechat", transactionId: "wx-43" });
    expect(paymentOf([])).toBeNull();
  });
});
