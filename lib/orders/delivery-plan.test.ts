import { describe, expect, it } from "vitest";
import { planDelivery } from "./delivery-plan";
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
  });

  it("delivering with nothing pending: only confirm", () => {
    const done = [lineProgress({ sku: "gems-60", quantity: 60 }, { granted: 60, reversed: 0 })];
    expect(planDelivery("delivering", done)).toEqual({ possible: true, steps: [{ kind: "confirm-delivery" }] });
  });

  it.each([
    ["delivered", true, { kind: "already-delivered" }],
    ["created", false, { kind: "not-paid" }],
    ["refunding", false, { kind: "grants-closed", state: "refunding" }],
    ["refunded", false, { kind: "grants-closed", state: "refunded" }],
    ["closed", false, { kind: "grants-closed", state: "closed" }],
  ] as const)("%s: no plan, and why", (state, nothingToDo, problem) => {
    expect(planDelivery(state, lines)).toEqual({ possible: false, nothingToDo, problem });
  });
});
