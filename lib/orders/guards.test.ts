import { describe, expect, it } from "vitest";
import { checkGuard, isLineKind, planReversals, REFUND_DISPOSITION, type LineFacts } from "./guards";

const line = (sku: string, kind: string, expected: number, granted: number, reversed = 0): LineFacts => ({
  sku,
  kind,
  expected,
  granted,
  reversed,
  pending: Math.max(0, expected - granted),
});

describe("amount-matches (pay)", () => {
  it("passes when the paid amount equals the order amount", () => {
    expect(checkGuard("amount-matches", { orderAmount: 128_00, currency: "CNY", paidAmount: 128_00, lines: [] })).toEqual({ ok: true, reversals: [] });
  });

  it("fails when no amount was given", () => {
    expect(checkGuard("amount-matches", { orderAmount: 128_00, currency: "CNY", lines: [] })).toEqual({
      ok: false,
      refusal: { kind: "amount-missing" },
    });
  });

  it.each([12_80, 128_01, 0])("fails when %s is paid on an order of 12800, with both amounts", (paidAmount) => {
    expect(checkGuard("amount-matches", { orderAmount: 128_00, currency: "CNY", paidAmount, lines: [] })).toEqual({
      ok: false,
      refusal: { kind: "amount-mismatch", paid: paidAmount, expected: 128_00, currency: "CNY" },
    });
  });

  it("ignores the lines: an undelivered order can still be paid", () => {
    expect(checkGuard("amount-matches", { orderAmount: 6_00, currency: "CNY", paidAmount: 6_00, lines: [line("gems", "currency", 60, 0)] })).toEqual({
      ok: true,
      reversals: [],
    });
  });
});

describe("nothing-pending (confirm-delivery)", () => {
  it("passes when every line is fully granted", () => {
    const lines = [line("gems", "currency", 60, 60), line("skin", "cosmetic", 1, 1)];
    expect(checkGuard("nothing-pending", { orderAmount: 6_00, currency: "CNY", lines })).toEqual({ ok: true, reversals: [] });
  });

  it("passes on an order without lines (nothing is owed)", () => {
    expect(checkGuard("nothing-pending", { orderAmount: 6_00, currency: "CNY", lines: [] })).toEqual({ ok: true, reversals: [] });
  });

  it("fails and lists only the lines still pending, with granted/expected", () => {
    const lines = [line("gems", "currency", 60, 59), line("skin", "cosmetic", 1, 1), line("stam", "stamina", 5, 0)];
    expect(checkGuard("nothing-pending", { orderAmount: 6_00, currency: "CNY", lines })).toEqual({
      ok: false,
      refusal: {
        kind: "lines-pending",
        lines: [
          { sku: "gems", granted: 59, expected: 60 },
          { sku: "stam", granted: 0, expected: 5 },
        ],
      },
    });
  });
});

describe("grants-reversed (confirm-refund)", () => {
  it("maps every known kind to its disposition: consumables are revoked, cosmetics written off", () => {
    expect(REFUND_DISPOSITION).toEqual({ currency: "revoke", stamina: "revoke", cosmetic: "write-off", item: "write-off" });
  });

  it.each([
    ["currency", "revoke"],
    ["stamina", "revoke"],
    ["cosmetic", "write-off"],
    ["item", "write-off"],
  ] as const)("a granted %s line is reversed by %s, for exactly what was granted", (kind, disposition) => {
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines: [line("x", kind, 10, 7)] })).toEqual({
      ok: true,
      reversals: [{ sku: "x", quantity: -7, disposition }],
    });
  });

  it("passes with no reversals when nothing was granted", () => {
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines: [line("gems", "currency", 60, 0)] })).toEqual({
      ok: true,
      reversals: [],
    });
  });

  it("fails on a granted line of unknown kind and names it, even if other lines are fine", () => {
    const lines = [line("gems", "currency", 60, 60), line("pet", "companion", 1, 1)];
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines })).toEqual({
      ok: false,
      refusal: { kind: "no-refund-rule", lines: [{ sku: "pet", kind: "companion" }] },
    });
  });

  it("an unknown kind that was never granted does not block the refund", () => {
    const lines = [line("gems", "currency", 60, 10), line("pet", "companion", 1, 0)];
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines })).toEqual({
      ok: true,
      reversals: [{ sku: "gems", quantity: -10, disposition: "revoke" }],
    });
  });
});

describe("planReversals", () => {
  it("one reversal per granted line, in line order; ungranted lines are skipped", () => {
    const lines = [
      line("gems", "currency", 60, 60),
      line("stam", "stamina", 5, 0),
      line("skin", "cosmetic", 1, 1),
      line("box", "item", 3, 2),
    ];
    expect(planReversals(lines)).toEqual({
      reversals: [
        { sku: "gems", quantity: -60, disposition: "revoke" },
        { sku: "skin", quantity: -1, disposition: "write-off" },
        { sku: "box", quantity: -2, disposition: "write-off" },
      ],
      unknownKinds: [],
    });
  });

  it("collects every granted line of unknown kind, and an already reversed (net 0) line is not reversed twice", () => {
    const lines = [line("pet", "companion", 1, 1), line("gems", "currency", 60, 0), line("vip", "", 1, 1), line("old", "mystery", 1, 0)];
    expect(planReversals(lines)).toEqual({
      reversals: [],
      unknownKinds: [
        { sku: "pet", kind: "companion" },
        { sku: "vip", kind: "" },
      ],
    });
  });

  it("reverses only what a line still holds: a line reversed before is not reversed again", () => {
    expect(planReversals([line("gems", "currency", 60, 60, 60), line("coins", "currency", 100, 100, 40)])).toEqual({
      reversals: [{ sku: "coins", quantity: -60, disposition: "revoke" }],
      unknownKinds: [],
    });
  });

  it("returns nothing for no lines", () => {
    expect(planReversals([])).toEqual({ reversals: [], unknownKinds: [] });
  });
});

describe("isLineKind", () => {
  it("accepts exactly the four kinds", () => {
    for (const k of ["currency", "stamina", "cosmetic", "item"]) expect(isLineKind(k)).toBe(true);
    for (const k of ["", "Currency", "companion", "gems"]) expect(isLineKind(k)).toBe(false);
  });
});
