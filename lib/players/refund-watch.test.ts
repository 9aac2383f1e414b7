import { describe, expect, it } from "vitest";
import { refundWatch } from "./refund-watch";

describe("the refund watch list", () => {
  const money = [
    { currency: "CNY", paid: 300_00, refunded: 90_00 },
    { currency: "USD", paid: 10_00, refunded: 5_00 },
  ];

  it("is off without a threshold", () => {
    expect(refundWatch(null, money)).toBeNull();
  });

  it("holds a player whose share in some currency is at or above the threshold, naming the highest share", () => {
    expect(refundWatch(30, money)).toEqual({ threshold: 30, currency: "USD", share: 0.5 });
    expect(refundWatch(50, money)).toEqual({ threshold: 50, currency: "USD", share: 0.5 });
    expect(refundWatch(30, [money[0]!])).toEqual({ threshold: 30, currency: "CNY", share: 0.3 });
  });

  it("leaves out a player below it, and one who paid nothing", () => {
    expect(refundWatch(51, money)).toBeNull();
    expect(refundWatch(1, [{ currency: "CNY", paid: 0, refunded: 0 }])).toBeNull();
  });
});
