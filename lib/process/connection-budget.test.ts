import { describe, expect, it } from "vitest";
import { connectionBudget, DEFAULT_POOL_MAX } from "./connection-budget";

describe("connectionBudget", () => {
  it("splits the node's default budget: a quarter for the worker, the rest evenly between the web processes", () => {
    expect(connectionBudget({}, { web: 2, simulator: false })).toEqual({ total: DEFAULT_POOL_MAX, worker: 10, simulator: 0, perWebProcess: 15 });
    expect(connectionBudget({}, { web: 4, simulator: false })).toMatchObject({ worker: 10, perWebProcess: 7 });
  });

  it("never hands out more than the budget", () => {
    for (const total of [16, 40, 41, 100, 333]) {
      for (const web of [1, 2, 3, 4]) {
        for (const simulator of [false, true]) {
          const budget = connectionBudget({ DATABASE_POOL_MAX: String(total) }, { web, simulator });
          expect(budget.worker + budget.simulator + budget.perWebProcess * web).toBeLessThanOrEqual(total);
          expect(budget.perWebProcess).toBeGreaterThanOrEqual(2);
        }
      }
    }
  });

  it("keeps the worker between 4 and 20, and gives the demo's simulator 2", () => {
    expect(connectionBudget({ DATABASE_POOL_MAX: "12" }, { web: 1, simulator: true })).toEqual({ total: 12, worker: 4, simulator: 2, perWebProcess: 6 });
    expect(connectionBudget({ DATABASE_POOL_MAX: "200" }, { web: 2, simulator: false })).toMatchObject({ worker: 20, perWebProcess: 90 });
  });

  it("refuses a budget too small for the web processes, saying what would do", () => {
    expect(() => connectionBudget({ DATABASE_POOL_MAX: "10" }, { web: 4, simulator: false })).toThrow(/DATABASE_POOL_MAX=10 .* raise it to at least 12, or lower WEB_CONCURRENCY/);
    expect(() => connectionBudget({ DATABASE_POOL_MAX: "lots" }, { web: 1, simulator: false })).toThrow(/positive integer/);
  });
});
