import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DEFAULT_TAKE_BACK_RULES,
  isLineKind,
  planRestore,
  planTakeBack,
  ruleAllowed,
  storedTakeBackRules,
  lineTakeBackSummary,
  takeBackOutcome,
  takesEverything,
  unitsTaken,
  type HeldLine,
} from "./take-back";

const line = (sku: string, kind: string, expected: number, granted: number, reversed = 0): HeldLine => ({ sku, kind, expected, granted, reversed });

describe("planTakeBack", () => {
  it("one move per line that holds something, in line order, under the tenant's rule for its kind", () => {
    const lines = [line("gems", "currency", 60, 60), line("stam", "stamina", 5, 0), line("skin", "cosmetic", 1, 1), line("box", "item", 3, 2)];
    expect(planTakeBack(lines, DEFAULT_TAKE_BACK_RULES)).toEqual({
      moves: [
        { sku: "gems", kind: "currency", quantity: -60, rule: "revoke" },
        { sku: "skin", kind: "cosmetic", quantity: -1, rule: "write-off" },
        { sku: "box", kind: "item", quantity: -2, rule: "write-off" },
      ],
      unknownKinds: [],
    });
    expect(planTakeBack([line("gems", "currency", 60, 60)], { ...DEFAULT_TAKE_BACK_RULES, currency: "negative-balance" }).moves).toEqual([
      { sku: "gems", kind: "currency", quantity: -60, rule: "negative-balance" },
    ]);
  });

  it("takes only what a line still holds, and names granted lines of unknown kind", () => {
    const lines = [line("gems", "currency", 60, 60, 60), line("coins", "currency", 100, 100, 40), line("pet", "companion", 1, 1), line("old", "mystery", 1, 0)];
    expect(planTakeBack(lines, DEFAULT_TAKE_BACK_RULES)).toEqual({
      moves: [{ sku: "coins", kind: "currency", quantity: -60, rule: "revoke" }],
      unknownKinds: [{ sku: "pet", kind: "companion" }],
    });
  });

  it("a partial refund takes that many units of each line (Google), or that share of it (Apple), never more than held", () => {
    const lines = [line("gems", "currency", 300, 300), line("box", "item", 3, 1)];
    expect(planTakeBack(lines, DEFAULT_TAKE_BACK_RULES, { kind: "units", units: 2 }).moves.map((m) => m.quantity)).toEqual([-2, -1]);
    // 33.333% of 300 gems is 100; of 3 boxes, 1 — and only 1 box was ever granted.
    expect(planTakeBack(lines, DEFAULT_TAKE_BACK_RULES, { kind: "share", milliPercent: 33_333 }).moves.map((m) => m.quantity)).toEqual([-100, -1]);
  });
});

describe("unitsTaken and takesEverything", () => {
  it("clamp a measure to what the line holds", () => {
    const gems = line("gems", "currency", 100, 80, 10);
    expect(unitsTaken(gems, { kind: "full" })).toBe(70);
    expect(unitsTaken(gems, { kind: "units", units: 500 })).toBe(70);
    expect(unitsTaken(gems, { kind: "units", units: -3 })).toBe(0);
    expect(unitsTaken(gems, { kind: "share", milliPercent: 40_000 })).toBe(40);
    expect(unitsTaken(gems, { kind: "share", milliPercent: 250_000 })).toBe(70);
  });

  it("a partial measure that leaves nothing anywhere is a full refund", () => {
    const lines = [line("gems", "currency", 2, 2), line("box", "item", 1, 1)];
    expect(takesEverything(lines, { kind: "units", units: 2 })).toBe(true);
    expect(takesEverything(lines, { kind: "units", units: 1 })).toBe(false);
    expect(takesEverything(lines, { kind: "share", milliPercent: 100_000 })).toBe(true);
  });

  it("property: a take-back then its restore leave every line holding what it held before", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ expected: fc.integer({ min: 1, max: 1000 }), grantedShare: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 100_000 }),
        (specs, milliPercent) => {
          const before = specs.map((s, i) => line(`sku${i}`, "currency", s.expected, Math.floor(s.expected * s.grantedShare)));
          const { moves } = planTakeBack(before, DEFAULT_TAKE_BACK_RULES, { kind: "share", milliPercent });
          const after = before.map((l) => ({ ...l, reversed: l.reversed - (moves.find((m) => m.sku === l.sku)?.quantity ?? 0) }));
          const restored = planRestore(after, {}, DEFAULT_TAKE_BACK_RULES);
          const end = after.map((l) => ({ ...l, reversed: l.reversed - (restored.find((m) => m.sku === l.sku)?.quantity ?? 0) }));
          expect(end).toEqual(before);
          for (const l of after) expect(l.granted - l.reversed).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe("rules", () => {
  it("only a balance may go negative", () => {
    expect(ruleAllowed("currency", "negative-balance")).toBe(true);
    expect(ruleAllowed("stamina", "negative-balance")).toBe(true);
    expect(ruleAllowed("cosmetic", "negative-balance")).toBe(false);
    expect(ruleAllowed("item", "negative-balance")).toBe(false);
    expect(ruleAllowed("item", "revoke")).toBe(true);
  });

  it("a stored row missing a kind takes that kind's default; an unknown rule is refused", () => {
    expect(storedTakeBackRules.parse({ currency: "write-off" })).toEqual({ ...DEFAULT_TAKE_BACK_RULES, currency: "write-off" });
    expect(storedTakeBackRules.safeParse({ currency: "burn" }).success).toBe(false);
  });

  it("isLineKind accepts exactly the four kinds", () => {
    for (const k of ["currency", "stamina", "cosmetic", "item"]) expect(isLineKind(k)).toBe(true);
    for (const k of ["", "Currency", "companion", "gems"]) expect(isLineKind(k)).toBe(false);
  });
});

// Issue 29, item 10: "−20 taken back … failed", and "taken back" beside "the player keeps it".
describe("what a take-back did", () => {
  it("is taken back only when the game confirmed it; a failed call, a debt and a write-off say so", () => {
    expect(takeBackOutcome({ units: -20, rule: "revoke", status: "failed" })).toBe("not-taken-back");
    expect(takeBackOutcome({ units: -20, rule: "revoke", status: "pending" })).toBe("taking-back");
    expect(takeBackOutcome({ units: -20, rule: "revoke", status: "done" })).toBe("taken-back");
    expect(takeBackOutcome({ units: -1, rule: "write-off", status: "recorded" })).toBe("written-off");
    expect(takeBackOutcome({ units: -5, rule: "negative-balance", status: "recorded" })).toBe("debt-recorded");
    expect(takeBackOutcome({ units: 20, rule: "revoke", status: "done" })).toBe("given-back");
    expect(takeBackOutcome({ units: 20, rule: "revoke", status: "failed" })).toBe("not-given-back");
    expect(takeBackOutcome({ units: 1, rule: "write-off", status: "recorded" })).toBe("write-off-undone");
  });

  it("sums a line's take-backs per outcome, and names only what the ledger reversed beyond them", () => {
    expect(lineTakeBackSummary(20, [{ units: -20, rule: "revoke", status: "failed" }])).toEqual({ outcomes: [{ outcome: "not-taken-back", units: 20 }], unexplained: 0 });
    expect(
      lineTakeBackSummary(0, [
        { units: -20, rule: "revoke", status: "done" },
        { units: 20, rule: "revoke", status: "done" },
      ]),
    ).toEqual({ outcomes: [{ outcome: "taken-back", units: 20 }, { outcome: "given-back", units: 20 }], unexplained: 0 });
    expect(lineTakeBackSummary(7, [])).toEqual({ outcomes: [], unexplained: 7 });
  });
});
