import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isFullyDelivered, ledgerBySku, lineProgress, orderProgress } from "./progress";

describe("lineProgress", () => {
  it("expected, granted and pending for a partly granted line", () => {
    expect(lineProgress({ sku: "gems", quantity: 60 }, { granted: 20, reversed: 0 })).toEqual({ sku: "gems", expected: 60, granted: 20, reversed: 0, pending: 40 });
  });

  it("nothing granted: everything pending", () => {
    expect(lineProgress({ sku: "gems", quantity: 60 })).toEqual({ sku: "gems", expected: 60, granted: 0, reversed: 0, pending: 60 });
  });

  it("fully granted: pending 0", () => {
    expect(lineProgress({ sku: "skin", quantity: 1 }, { granted: 1, reversed: 0 })).toEqual({ sku: "skin", expected: 1, granted: 1, reversed: 0, pending: 0 });
  });

  it("more granted than ordered: pending is 0, never negative, and granted is reported as is", () => {
    expect(lineProgress({ sku: "gems", quantity: 60 }, { granted: 75, reversed: 0 })).toEqual({ sku: "gems", expected: 60, granted: 75, reversed: 0, pending: 0 });
  });

  it("pending is never negative and never above the line quantity for any granted >= 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 20_000 }), (quantity, granted) => {
        const p = lineProgress({ sku: "s", quantity }, { granted, reversed: 0 });
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
    const ledger = ledgerBySku([
      { sku: "skin", grantId: "g1", quantity: 1 },
      { sku: "gems", grantId: "g2", quantity: 20 },
      { sku: "gems", grantId: "g3", quantity: 10 },
      { sku: "unrelated", grantId: "g4", quantity: 9 },
    ]);
    expect(orderProgress(lines, ledger)).toEqual([
      { sku: "gems", expected: 60, granted: 30, reversed: 0, pending: 30 },
      { sku: "skin", expected: 1, granted: 1, reversed: 0, pending: 0 },
      { sku: "stam", expected: 5, granted: 0, reversed: 0, pending: 5 },
    ]);
  });

  it("a refunded line keeps what was delivered, shows the reversal, and is not pending again", () => {
    const ledger = ledgerBySku([
      { sku: "gems", grantId: "deliver", quantity: 60 },
      { sku: "gems", grantId: "refund:r1", quantity: -60 },
    ]);
    expect(ledger).toEqual({ gems: { granted: 60, reversed: 60 } });
    expect(orderProgress([{ sku: "gems", quantity: 60 }], ledger)).toEqual([
      { sku: "gems", expected: 60, granted: 60, reversed: 60, pending: 0 },
    ]);
  });

  it("a store's reversal of its refund gives the units back: not a second delivery", () => {
    const ledger = ledgerBySku([
      { sku: "gems", grantId: "deliver", quantity: 60 },
      { sku: "gems", grantId: "refund:r1", quantity: -60 },
      { sku: "gems", grantId: "reinstate:r2", quantity: 60 },
      { sku: "gems", grantId: "refund:r3", quantity: -20 },
    ]);
    expect(ledger).toEqual({ gems: { granted: 60, reversed: 20 } });
  });

  it("no lines: no progress entries", () => {
    expect(orderProgress([], { gems: { granted: 1, reversed: 0 } })).toEqual([]);
  });
});

describe("isFullyDelivered", () => {
  it("true only when every pending is 0", () => {
    const lines = [
      { sku: "gems", quantity: 60 },
      { sku: "skin", quantity: 1 },
    ];
    expect(isFullyDelivered(orderProgress(lines, ledgerBySku([{ sku: "gems", grantId: "g", quantity: 60 }, { sku: "skin", grantId: "g", quantity: 1 }])))).toBe(true);
    expect(isFullyDelivered(orderProgress(lines, ledgerBySku([{ sku: "gems", grantId: "g", quantity: 60 }])))).toBe(false);
    expect(isFullyDelivered(orderProgress(lines, ledgerBySku([{ sku: "gems", grantId: "g", quantity: 59 }, { sku: "skin", grantId: "g", quantity: 1 }])))).toBe(false);
    expect(isFullyDelivered(orderProgress(lines, ledgerBySku([])))).toBe(false);
  });

  it("an order without lines is fully delivered", () => {
    expect(isFullyDelivered([])).toBe(true);
  });
});
