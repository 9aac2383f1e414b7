import { describe, expect, it } from "vitest";
import { DEMO_CATALOG, HISTORY_PROFILES, pickTable, planScenario, SCENARIOS, weightedMean } from "./demo-catalog";

describe("demo catalogue", () => {
  it("prices average exactly seed 000's figures: ¥14.50 for xiaoxiao, ¥182 for fangzhou with ¥128 the main tier", () => {
    const average = (id: keyof typeof DEMO_CATALOG) =>
      weightedMean(DEMO_CATALOG[id].products.map((p) => ({ weight: p.weight, value: p.price })));
    expect(average("xiaoxiao")).toBe(14_50);
    expect(average("fangzhou")).toBe(182_00);
    const main = [...DEMO_CATALOG.fangzhou.products].sort((a, b) => b.weight - a.weight)[0]!;
    expect(main.price).toBe(128_00);
  });

  it("has products whose first line can be delivered in two batches and whose skus are distinct", () => {
    for (const catalog of Object.values(DEMO_CATALOG)) {
      expect(catalog.products.reduce((sum, p) => sum + p.weight, 0)).toBe(1000);
      for (const product of catalog.products) {
        expect(product.lines[0]!.quantity).toBeGreaterThanOrEqual(2);
        expect(new Set(product.lines.map((l) => l.sku)).size).toBe(product.lines.length);
        expect(Number.isInteger(product.price)).toBe(true);
      }
    }
    expect(DEMO_CATALOG.xiaoxiao.share + DEMO_CATALOG.fangzhou.share).toBe(1);
  });

  it("has multi-line packs mixing currency, cosmetics, stamina and items", () => {
    const kinds = new Set(Object.values(DEMO_CATALOG).flatMap((c) => c.products.flatMap((p) => p.lines.map((l) => l.kind))));
    expect([...kinds].sort()).toEqual(["cosmetic", "currency", "item", "stamina"]);
  });
});

describe("demo scenarios", () => {
  it("are legal walks of the state table ending in every state", () => {
    const finals = new Set(SCENARIOS.map((s) => planScenario(s.events).finalState));
    expect([...finals].sort()).toEqual(["closed", "created", "delivered", "delivering", "paid", "refunded", "refunding"]);
  });

  it("reject-refund returns to the state the refund was requested from", () => {
    const plan = planScenario(["pay", "begin-delivery", "request-refund", "reject-refund", "confirm-delivery"]);
    expect(plan.steps.map((s) => `${s.from}>${s.to}`)).toEqual([
      "created>paid",
      "paid>delivering",
      "delivering>refunding",
      "refunding>delivering",
      "delivering>delivered",
    ]);
    expect(plan.delivery).toBe("full");
    expect(plan.steps.map((s) => s.cycle)).toEqual([0, 0, 1, 1, 0]);
  });

  it("refuses an illegal history", () => {
    expect(() => planScenario(["pay", "confirm-delivery"])).toThrow(/illegal from paid/);
    expect(() => planScenario(["close", "pay"])).toThrow(/illegal from closed/);
  });

  it("dense averages more than 5 transitions per order, typical about 3", () => {
    const mean = (profile: (typeof HISTORY_PROFILES)[number]) =>
      weightedMean(SCENARIOS.map((s) => ({ weight: s.weight[profile], value: s.events.length })));
    expect(mean("dense")).toBeGreaterThan(5);
    expect(mean("typical")).toBeGreaterThan(2.5);
    expect(mean("typical")).toBeLessThan(3.5);
    for (const profile of HISTORY_PROFILES) expect(pickTable(SCENARIOS.map((s) => s.weight[profile]))).toHaveLength(1000);
  });

  it("pickTable refuses weights that do not add up to 1000", () => {
    expect(() => pickTable([500, 499])).toThrow(/1000/);
    expect(pickTable([998, 2]).slice(-3)).toEqual([1, 2, 2]);
  });
});
