import { describe, expect, it } from "vitest";
import { paymentOf } from "./payment";
import { pendingApproval, refusedRefunds, type ApprovalFacts } from "./refund-history";
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
      { kind: "channel-rejected", transitionId: 8, at: at(20), by: "channel:alipay", reason: "outside the refund window", receipt: "ali-r-9" },
      { kind: "approval-rejected", approvalId: 1, at: at(1), by: "staff:manager@example.com", reason: "items already used", requestedBy: "staff:agent@example.com" },
    ]);
  });

  it("reads the payment channel and its transaction id from the pay transition", () => {
    expect(paymentOf([transition(8, "begin-delivery", "game:server", "", 2), transition(7, "pay", "channel:alipay", "ali-1", 1)])).toEqual({
      channel: "alipay",
      actor: "channel:alipay",
      transactionId: "ali-1",
      at: at(1),
    });
    expect(paymentOf([transition(7, "pay", "staff:ops@example.com", "wx-42", 1)])).toMatchObject({ channel: null, transactionId: "wx-42" });
    expect(paymentOf([transition(7, "pay", "apikey:xiaoxiao/wechat", "wx-43", 1)])).toMatchObject({ channel: "wechat", transactionId: "wx-43" });
    expect(paymentOf([])).toBeNull();
  });
});
