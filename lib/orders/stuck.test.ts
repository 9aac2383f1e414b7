import { describe, expect, it } from "vitest";
import { dwellOf, dwellThresholds, isStuck } from "./stuck";

describe("stuck", () => {
  it("is past the product's limit for the state, not at it; no limit, never stuck", () => {
    expect(isStuck(301, 300)).toBe(true);
    expect(isStuck(300, 300)).toBe(false);
    expect(isStuck(1_000_000, null)).toBe(false);
  });

  it("reads a product's thresholds forgivingly: only states with a number of at least a second count", () => {
    expect(dwellThresholds.parse({ paid: 300.7, delivering: 0.5, refunding: "3d", nonsense: 60, created: 1800 })).toEqual({ paid: 300, created: 1800 });
    expect(dwellThresholds.parse("not an object")).toEqual({});
  });

  it("says how long, against which limit", () => {
    const thresholds = dwellThresholds.parse({ paid: 300 });
    expect(dwellOf("paid", 7_200, thresholds)).toEqual({ secondsInState: 7_200, maxDwellSeconds: 300, stuck: true });
    expect(dwellOf("paid", 60, thresholds)).toEqual({ secondsInState: 60, maxDwellSeconds: 300, stuck: false });
    expect(dwellOf("delivered", 7_200, thresholds)).toEqual({ secondsInState: 7_200, maxDwellSeconds: null, stuck: false });
  });
});
