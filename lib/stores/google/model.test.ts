import { describe, expect, it } from "vitest";
import { coversOrder, developerNotification, notificationType, polledVoid, pushedVoid, voidSteps, type VoidFact } from "./model";

const fact = (refundType: VoidFact["refundType"], voidedQuantity: number | null): VoidFact => ({
  notificationId: "n",
  source: "poll",
  orderId: "GPA.1",
  purchaseToken: "t",
  at: 1,
  refundType,
  voidedQuantity,
});

describe("Google Play voids (pure)", () => {
  it("a void covers the order when it is full, or when its quantity covers every line; anything less is partial", () => {
    expect(coversOrder(fact("full", null), [3])).toBe(true);
    expect(coversOrder(fact("partial", 3), [3])).toBe(true);
    expect(coversOrder(fact("partial", 1), [3])).toBe(false);
    // 60 gems and a cosmetic: one unit back says nothing about which gems.
    expect(coversOrder(fact("partial", 1), [60, 1])).toBe(false);
    // A push of a partial refund does not say how many units.
    expect(coversOrder(fact("partial", null), [1])).toBe(false);
  });

  it("a covering void refunds like an App Store REFUND; a partial one is a case while there are goods to take back", () => {
    expect(voidSteps(true, "delivered")).toEqual([
      { kind: "transit", event: "request-refund" },
      { kind: "transit", event: "confirm-refund" },
    ]);
    expect(voidSteps(true, "refunding")).toEqual([{ kind: "transit", event: "confirm-refund" }]);
    expect(voidSteps(true, "refunded")).toEqual([]);
    expect(voidSteps(false, "paid")).toEqual([{ kind: "case" }]);
    expect(voidSteps(false, "refunding")).toEqual([{ kind: "case" }]);
    for (const state of ["created", "refunded", "closed"] as const) expect(voidSteps(false, state)).toEqual([]);
  });

  it("reads both feeds into one fact: a push by its messageId, a polled void by orderId and voidedTime", () => {
    const n = developerNotification.parse({
      packageName: "com.example.game",
      eventTimeMillis: "1764590400000",
      voidedPurchaseNotification: { purchaseToken: "pt", orderId: "GPA.1", productType: 2, refundType: 2 },
    });
    expect(notificationType(n)).toBe("VOIDED_PURCHASE");
    expect(pushedVoid("42", n, n.voidedPurchaseNotification!)).toEqual({
      notificationId: "42",
      source: "push",
      orderId: "GPA.1",
      purchaseToken: "pt",
      at: 1764590400000,
      refundType: "partial",
      voidedQuantity: null,
    });
    expect(polledVoid({ orderId: "GPA.1", purchaseToken: "pt", voidedTimeMillis: 1764590400000, voidedQuantity: 2 })).toMatchObject({
      notificationId: "voided:GPA.1:1764590400000",
      source: "poll",
      refundType: "partial",
      voidedQuantity: 2,
    });
    expect(notificationType(developerNotification.parse({ packageName: "p.q", eventTimeMillis: "1", testNotification: { version: "1.0" } }))).toBe("TEST");
  });
});
