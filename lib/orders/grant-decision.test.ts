import { describe, expect, it } from "vitest";
import { decideGrant, GRANTABLE_STATES, type GrantFacts } from "./grant-decision";

// A delivering order, line of 10 with 4 granted, asking for 1 more, never granted before: applied.
const base: GrantFacts = { state: "delivering", line: { quantity: 10, granted: 4 }, alreadyGranted: false, quantity: 1, sku: "gems" };
const facts = (overrides: Partial<GrantFacts>): GrantFacts => ({ ...base, ...overrides });
const withoutLine = (overrides: Omit<Partial<GrantFacts>, "line"> = {}): GrantFacts => {
  const { state, sku, alreadyGranted, quantity } = facts(overrides);
  return { state, sku, alreadyGranted, quantity };
};

describe("decideGrant: each outcome", () => {
  it.each(["paid", "delivering"] as const)("applied in %s", (state) => {
    expect(decideGrant(facts({ state })).outcome).toBe("applied");
  });

  it("only paid and delivering are grantable", () => {
    expect([...GRANTABLE_STATES]).toEqual(["paid", "delivering"]);
  });

  it("duplicate when the same (order, sku, grantId) exists", () => {
    expect(decideGrant(facts({ alreadyGranted: true })).outcome).toBe("duplicate");
  });

  it.each(["created", "delivered", "refunding", "refunded", "closed"] as const)("invalid-state in %s", (state) => {
    expect(decideGrant(facts({ state })).outcome).toBe("invalid-state");
  });

  it("unknown-sku when the order has no such line", () => {
    expect(decideGrant(withoutLine()).outcome).toBe("unknown-sku");
  });

  it.each([0, -1, -10, 0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("invalid-quantity for %s", (quantity) => {
    expect(decideGrant(facts({ quantity })).outcome).toBe("invalid-quantity");
  });

  it("over-delivery: exactly up to the line quantity is applied, one past it is refused", () => {
    // 4 granted of 10: 6 more reaches the line quantity exactly, 7 would pass it.
    expect(decideGrant(facts({ quantity: 6 })).outcome).toBe("applied");
    expect(decideGrant(facts({ quantity: 7 })).outcome).toBe("over-delivery");
    expect(decideGrant(facts({ line: { quantity: 10, granted: 10 }, quantity: 1 })).outcome).toBe("over-delivery");
    expect(decideGrant(facts({ line: { quantity: 1, granted: 0 }, quantity: 1 })).outcome).toBe("applied");
    expect(decideGrant(facts({ line: { quantity: 1, granted: 0 }, quantity: 2 })).outcome).toBe("over-delivery");
  });
});

describe("decideGrant: order of precedence (duplicate, quantity, sku, state, over-delivery)", () => {
  it("a replayed grantId is duplicate even after the order moved on, and whatever else is wrong", () => {
    for (const state of ["delivered", "refunded", "closed"] as const) {
      expect(decideGrant(facts({ state, alreadyGranted: true })).outcome).toBe("duplicate");
    }
    expect(decideGrant(facts({ alreadyGranted: true, quantity: 0 })).outcome).toBe("duplicate");
    expect(decideGrant(facts({ alreadyGranted: true, quantity: 100 })).outcome).toBe("duplicate");
    expect(decideGrant(facts({ alreadyGranted: true, line: { quantity: 10, granted: 10 } })).outcome).toBe("duplicate");
  });

  it("a malformed quantity is reported before the state, the sku and the line's room", () => {
    expect(decideGrant(facts({ state: "closed", quantity: 0 })).outcome).toBe("invalid-quantity");
    expect(decideGrant(withoutLine({ quantity: -1 })).outcome).toBe("invalid-quantity");
    expect(decideGrant(facts({ line: { quantity: 10, granted: 10 }, quantity: 0.5 })).outcome).toBe("invalid-quantity");
  });

  it("an unknown sku is reported before the state", () => {
    expect(decideGrant(withoutLine({ state: "closed" })).outcome).toBe("unknown-sku");
    expect(decideGrant(withoutLine({ state: "created" })).outcome).toBe("unknown-sku");
  });

  it("a wrong state is reported before over-delivery", () => {
    expect(decideGrant(facts({ state: "delivered", line: { quantity: 10, granted: 10 }, quantity: 5 })).outcome).toBe("invalid-state");
    expect(decideGrant(facts({ state: "created", quantity: 100 })).outcome).toBe("invalid-state");
  });
});

describe("decideGrant: refusals carry the facts", () => {
  it("over-delivery names the line, what it holds, what was granted and what was asked", () => {
    expect(decideGrant(facts({ quantity: 7 }))).toEqual({
      outcome: "over-delivery",
      refusal: { kind: "over-delivery", sku: "gems", quantity: 10, granted: 4, requested: 7 },
    });
  });

  it("a wrong state names the state; an unknown line names the sku", () => {
    expect(decideGrant(facts({ state: "closed" }))).toEqual({ outcome: "invalid-state", refusal: { kind: "grant-not-allowed", state: "closed" } });
    expect(decideGrant(withoutLine())).toEqual({ outcome: "unknown-sku", refusal: { kind: "unknown-sku", sku: "gems" } });
  });
});
