import { describe, expect, it } from "vitest";
import { describePlan, planDelivery } from "./delivery-plan";
import { lineProgress } from "./progress";

const lines = [
  lineProgress({ sku: "gems-60", quantity: 60 }, { granted: 20, reversed: 0 }),
  lineProgress({ sku: "skin-1", quantity: 1 }, { granted: 1, reversed: 0 }),
];

describe("planDelivery", () => {
  it("paid: begin, grant every pending line, confirm", () => {
    const plan = planDelivery("paid", lines);
    expect(plan).toEqual({
      possible: true,
      steps: [{ kind: "begin-delivery" }, { kind: "grant", sku: "gems-60", quantity: 40 }, { kind: "confirm-delivery" }],
    });
    expect(describePlan(plan)).toBe("begin delivery; grant gems-60 ×40; confirm delivery");
  });

  it("delivering with nothing pending: only confirm", () => {
    const done = [lineProgress({ sku: "gems-60", quantity: 60 }, { granted: 60, reversed: 0 })];
    expect(planDelivery("delivering", done)).toEqual({ possible: true, steps: [{ kind: "confirm-delivery" }] });
  });

  it.each([
    ["delivered", true, "already delivered: nothing to do"],
    ["created", false, "not paid yet: nothing may be delivered"],
    ["refunding", false, "the order is refunding: grants are not allowed"],
    ["refunded", false, "the order is refunded: grants are not allowed"],
    ["closed", false, "the order is closed: grants are not allowed"],
  ] as const)("%s: no plan, and why", (state, nothingToDo, reason) => {
    expect(planDelivery(state, lines)).toEqual({ possible: false, nothingToDo, reason });
  });
});
