import { describe, expect, it } from "vitest";
import { checkGuard, type LineFacts } from "./guards";

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
    expect(checkGuard("amount-matches", { orderAmount: 128_00, currency: "CNY", paidAmount: 128_00, lines: [] })).toEqual({ ok: true, moves: [] });
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
      moves: [],
    });
  });
});

describe("nothing-pending (confirm-delivery)", () => {
  it("passes when every line is fully granted", () => {
    const lines = [line("gems", "currency", 60, 60), line("skin", "cosmetic", 1, 1)];
    expect(checkGuard("nothing-pending", { orderAmount: 6_00, currency: "CNY", lines })).toEqual({ ok: true, moves: [] });
  });

  it("passes on an order without lines (nothing is owed)", () => {
    expect(checkGuard("nothing-pending", { orderAmount: 6_00, currency: "CNY", lines: [] })).toEqual({ ok: true, moves: [] });
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
  it.each([
    ["currency", "revoke"],
    ["stamina", "revoke"],
    ["cosmetic", "write-off"],
    ["item", "write-off"],
  ] as const)("by default a granted %s line is taken back by %s, for exactly what was granted", (kind, rule) => {
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines: [line("x", kind, 10, 7)] })).toEqual({
      ok: true,
      moves: [{ sku: "x", kind, quantity: -7, rule }],
    });
  });

  it("follows the tenant's rules when it has them", () => {
    const rules = { currency: "negative-balance", stamina: "write-off", cosmetic: "revoke", item: "revoke" } as const;
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines: [line("gems", "currency", 60, 60), line("skin", "cosmetic", 1, 1)], rules })).toEqual({
      ok: true,
      moves: [
        { sku: "gems", kind: "currency", quantity: -60, rule: "negative-balance" },
        { sku: "skin", kind: "cosmetic", quantity: -1, rule: "revoke" },
      ],
    });
  });

  it("passes with no moves when nothing was granted", () => {
    expect(checkGuard("grants-reversed", { orderAmount: 6_00, currency: "CNY", lines: [line("gems", "currency", 60, 0)] })).toEqual({ ok: true, moves: [] });
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
      moves: [{ sku: "gems", kind: "currency", quantity: -10, rule: "revoke" }],
    });
  });
});

describe("grants-restored (reverse-refund)", () => {
  it("gives back what each line had taken back, by the rule it was taken by", () => {
    const lines = [line("gems", "currency", 60, 60, 60), line("skin", "cosmetic", 1, 1, 1), line("stam", "stamina", 5, 5, 0)];
    expect(checkGuard("grants-restored", { orderAmount: 6_00, currency: "CNY", lines, takenBy: { gems: "negative-balance" } })).toEqual({
      ok: true,
      moves: [
        { sku: "gems", kind: "currency", quantity: 60, rule: "negative-balance" },
        { sku: "skin", kind: "cosmetic", quantity: 1, rule: "write-off" },
      ],
    });
  });
});
