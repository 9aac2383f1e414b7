import { describe, expect, it } from "vitest";
import { developerNotification, notificationType, polledVoid, pushedVoid, voidBizKey, voidMeasure, type VoidFact } from "./model";

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
  it("a full void is the whole order; a partial one is its voidedQuantity of each line, unknown until the poll says it", () => {
    expect(voidMeasure(fact("full", null))).toBeNull();
    expect(voidMeasure(fact("partial", 2))).toEqual({ kind: "units", units: 2 });
    expect(voidMeasure(fact("partial", null))).toBe("unknown");
  });

  it("a full void is one fact by push or poll (keyed by the order); a partial one is keyed by the void read", () => {
    expect(voidBizKey(fact("full", null), null)).toBe("googleplay:void:GPA.1");
    expect(voidBizKey({ ...fact("full", null), notificationId: "push-1" }, null)).toBe("googleplay:void:GPA.1");
    expect(voidBizKey(fact("partial", 2), { kind: "units", units: 2 })).toBe("googleplay:n");
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
