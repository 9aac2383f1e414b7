import { describe, expect, it } from "vitest";
import { refundedMoney } from "./refund-money";

describe("the money a store refund moved", () => {
  it("a full refund is the whole amount", () => {
    expect(refundedMoney(6_00, { kind: "full" }, [60])).toBe(6_00);
  });

  it("Apple's prorated refund is revocationPercentage (milliunits of a percent) of the amount", () => {
    expect(refundedMoney(6_00, { kind: "share", milliPercent: 40_000 }, [60])).toBe(2_40);
    expect(refundedMoney(128_00, { kind: "share", milliPercent: 25_000 }, [1, 5])).toBe(32_00);
    expect(refundedMoney(6_00, { kind: "share", milliPercent: 0 }, [60])).toBe(0);
    // Never more than the amount, whatever the store says.
    expect(refundedMoney(6_00, { kind: "share", milliPercent: 250_000 }, [60])).toBe(6_00);
  });

  it("rounds to the nearest minor unit, a half up", () => {
    // 600 × 1/3 = 200 exactly; 100 × 1/8 = 12.5 → 13; 100 × 33,333/100,000 = 33.333 → 33; 1 × 1/2 → 1.
    expect(refundedMoney(6_00, { kind: "units", units: 1 }, [3])).toBe(2_00);
    expect(refundedMoney(1_00, { kind: "units", units: 1 }, [8])).toBe(13);
    expect(refundedMoney(1_00, { kind: "share", milliPercent: 33_333 }, [1])).toBe(33);
    expect(refundedMoney(1, { kind: "share", milliPercent: 50_000 }, [1])).toBe(1);
    expect(refundedMoney(1, { kind: "share", milliPercent: 49_999 }, [1])).toBe(0);
  });

  it("Google's partial void is voidedQuantity over the line quantity, times the amount", () => {
    expect(refundedMoney(6_00, { kind: "units", units: 1 }, [2])).toBe(3_00);
    expect(refundedMoney(18_00, { kind: "units", units: 2 }, [3])).toBe(12_00);
    // Several lines: the units the void names on each (never more than ordered) over all units ordered.
    expect(refundedMoney(10_00, { kind: "units", units: 1 }, [2, 2])).toBe(5_00);
    expect(refundedMoney(10_00, { kind: "units", units: 2 }, [1, 4])).toBe(6_00);
    expect(refundedMoney(6_00, { kind: "units", units: 9 }, [3])).toBe(6_00);
    expect(refundedMoney(6_00, { kind: "units", units: 1 }, [])).toBe(0);
  });

  it("is exact for amounts past what a float multiplies exactly", () => {
    expect(refundedMoney(9_007_199_254_740_000, { kind: "share", milliPercent: 33_333 }, [1])).toBe(3_002_369_727_582_484);
  });
});
