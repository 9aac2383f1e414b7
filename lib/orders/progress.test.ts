import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isFullyDelivered, lineProgress, orderProgress } from "./progress";

describe("lineProgress", () => {
  it("expected, granted and pending for a partly granted line", () => {
    expect(lineProgress({ sku: "gems", quantity: 60 }, 20)).toEqual({ sku: "gems", expected: 60, granted: 20, pending: 40 });
  });

  it("nothing granted: everything pending", () => {
    expect(lineProgress({ sku: "gems", quantity: 60 }, 0)).toEqual({ sku: "gems", expected: 60, granted: 0, pending: 60 });
  });

  it("fully granted: pending 0", () => {
    expect(lineProgress({ sku: "skin", quantity: 1 }, 1)).toEqual({ sku: "skin", expected: 1, granted: 1, pending: 0 });
  });

  it("more granted than ordered: pending is 0, never negative, and granted is reported as is", () => {
    expect(lineProgress({ sku: "gems", quantity: 60 }, 75)).toEqual({ sku: "gems", expected: 60, granted: 75, pending: 0 });
  });

  it("pending is never negative and never above the line quantity for any granted >= 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 20_000 }), (quantity, granted) => {
        const p = lineProgress({ sku: "s", quantity }, granted);
        expect(p.pending).toBeGreaterThanOrEqual(0);
        expect(p.pending).toBeLessThanOrEqual(quantity);
        expect(p.pending).toBe(granted >= quantity ? 0 : quantity - granted);
      }),
    );
  });
});

describe("orderProgress", () => {
  it("one entry per line in line order; a line with no ledger entry has granted 0", () => {
    const lines = [
      { sku: "gems", quantity: 60 },
      { sku: "skin", quantity: 1 },
      { sku: "stam", quantity: 5 },
    ];
    expect(orderProgress(lines, { skin: 1, gems: 30, unrelated: 9 })).toEqual([
      { sku: "gems", expected: 60, granted: 30, pending: 30 },
      { sku: "skin", expected: 1, granted: 1, pending: 0 },
      { sku: "stam", expected: 5, granted: 0, pending: 5 },
    ]);
  });

  it("no lines: no progress entries", () => {
    expect(orderProgress([], { gems: 1 })).toEqual([]);
  });
});

describe("isFullyDelivered", () => {
  it("true only when every pending is 0", () => {
    const lines = [
      { sku: "gems", quantity: 60 },
      { sku: "skin", quantity: 1 },
    ];
    expect(isFullyDelivered(orderProgress(lines, { gems: 60, skin: 1 }))).toBe(true);
    expect(isFullyDelivered(orderProgress(lines, { gems: 60 }))).toBe(false);
    expect(isFullyDelivered(orderProgress(lines, { gems: 59, skin: 1 }))).toBe(false);
    expect(isFullyDelivered(orderProgress(lines, {}))).toBe(false);
  });

  it("an order without lines is fully delivered", () => {
    expect(isFullyDelivered([])).toBe(true);
  });
});
