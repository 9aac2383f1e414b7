import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ORDER_STATES } from "@/lib/orders/machine";
import { latestSignal, REFUND_SIGNALS, refundMeasure, stepsFor, type SignalFact } from "./model";

const fact = (type: SignalFact["type"], signedAt: number, notificationId = `${type}-${signedAt}`): SignalFact => ({ type, signedAt, notificationId });

describe("the ordering rule", () => {
  it("picks the refund fact signed last, whatever the order it is given in", () => {
    const facts = [fact("REFUND", 1), fact("REFUND_REVERSED", 2), fact("REFUND_DECLINED", 0)];
    expect(latestSignal(facts)).toBe(facts[1]);
    expect(latestSignal([])).toBeNull();
  });

  it("breaks equal signedDates by what is most final, then by id, so every arrival order agrees", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.constantFrom(...REFUND_SIGNALS), signedAt: fc.integer({ min: 0, max: 3 }), notificationId: fc.uuid() }), { minLength: 1, maxLength: 8 }),
        fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
        (facts, keys) => {
          const shuffled = facts.map((f) => ({ f, k: keys.next().value as number })).sort((a, b) => a.k - b.k).map((x) => x.f);
          expect(latestSignal(shuffled)).toEqual(latestSignal(facts));
        },
      ),
    );
    expect(latestSignal([fact("REFUND", 5, "a"), fact("REFUND_REVERSED", 5, "b")])?.type).toBe("REFUND_REVERSED");
    expect(latestSignal([fact("REFUND_DECLINED", 5, "z"), fact("REFUND", 5, "a")])?.type).toBe("REFUND");
  });
});

describe("what the latest refund fact asks of an order", () => {
  it("REFUND: request and confirm from paid, delivering and delivered; confirm from refunding; nothing otherwise", () => {
    const steps = Object.fromEntries(ORDER_STATES.map((s) => [s, stepsFor("REFUND", s).map((x) => (x.kind === "transit" ? x.event : x.kind))]));
    expect(steps).toEqual({
      created: [],
      paid: ["request-refund", "confirm-refund"],
      delivering: ["request-refund", "confirm-refund"],
      delivered: ["request-refund", "confirm-refund"],
      refunding: ["confirm-refund"],
      refunded: [],
      closed: [],
    });
  });

  it("REFUND_DECLINED rejects a refund under way; REFUND_REVERSED also takes a refunded order back and gives back what a partial refund took", () => {
    const giveBack = [{ kind: "goods", move: { kind: "give-back" } }];
    const reject = [{ kind: "transit", event: "reject-refund" }];
    for (const state of ORDER_STATES) expect(stepsFor("REFUND_DECLINED", state)).toEqual(state === "refunding" ? reject : []);
    expect(Object.fromEntries(ORDER_STATES.map((s) => [s, stepsFor("REFUND_REVERSED", s)]))).toEqual({
      created: [],
      paid: giveBack,
      delivering: giveBack,
      delivered: giveBack,
      refunding: reject,
      refunded: [{ kind: "transit", event: "reverse-refund" }],
      closed: [],
    });
  });

  it("a prorated REFUND takes back its share of each line and leaves the order where it is; any other REFUND is the whole order", () => {
    const share = refundMeasure({ revocationType: "REFUND_PRORATED", revocationPercentage: 40_000 });
    expect(share).toEqual({ kind: "share", milliPercent: 40_000 });
    expect(stepsFor("REFUND", "delivered", share)).toEqual([{ kind: "goods", move: { kind: "take-back", measure: share } }]);
    expect(refundMeasure({ revocationType: "REFUND_PRORATED", revocationPercentage: 100_000 })).toBeNull();
    expect(refundMeasure({ revocationType: "REFUND_FULL" })).toBeNull();
    expect(refundMeasure(null)).toBeNull();
    expect(stepsFor("REFUND", "refunded", share)).toEqual([]);
  });
});
