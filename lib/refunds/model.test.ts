import { describe, expect, it } from "vitest";
import { decideRefundEvent, refundable } from "./model";

describe("decideRefundEvent", () => {
  it("confirm and fail apply while the refund is requested or sent", () => {
    for (const status of ["requested", "sent"] as const) {
      expect(decideRefundEvent({ refundId: "rf-1", status, channelRef: null }, "confirm", "r-1")).toEqual({ outcome: "apply", to: "confirmed" });
      expect(decideRefundEvent({ refundId: "rf-1", status, channelRef: null }, "fail", "r-1")).toEqual({ outcome: "apply", to: "failed" });
    }
  });

  it("the same answer again is a duplicate; any other answer on a settled refund is illegal", () => {
    const confirmed = { refundId: "rf-1", status: "confirmed", channelRef: "r-1" } as const;
    expect(decideRefundEvent(confirmed, "confirm", "r-1")).toEqual({ outcome: "duplicate" });
    expect(decideRefundEvent(confirmed, "confirm", "r-2")).toEqual({
      outcome: "illegal",
      refusal: { kind: "refund-settled", refundId: "rf-1", status: "confirmed", event: "confirm" },
    });
    expect(decideRefundEvent(confirmed, "fail", "r-1").outcome).toBe("illegal");
  });

  it("what a payment can still give back never goes below zero", () => {
    expect(refundable(100, 30)).toBe(70);
    expect(refundable(100, 130)).toBe(0);
  });
});
