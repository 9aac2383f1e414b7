import { describe, expect, it } from "vitest";
import { viewAccess } from "./access";

const agent = { id: 1, role: "agent" as const, tenantIds: ["a"] };
const ops = { id: 2, role: "ops" as const, tenantIds: ["a"] };
const manager = { id: 3, role: "manager" as const, tenantIds: ["a"] };
const elsewhere = { id: 4, role: "manager" as const, tenantIds: ["b"] };

describe("viewAccess", () => {
  it("a personal view is its owner's alone", () => {
    const mine = { tenantId: null, ownerId: 1, shared: false };
    expect(viewAccess(mine, agent)).toBe("edit");
    expect(viewAccess(mine, manager)).toBe("someone-else");
    expect(viewAccess({ ...mine, tenantId: "a" }, agent)).toBe("edit");
    // The owner lost the product: the view would open on a filter the page refuses.
    expect(viewAccess({ ...mine, tenantId: "b" }, agent)).toBe("out-of-scope");
  });

  it("a shared view is seen by the product's staff and changed by its creator or a manager", () => {
    const shared = { tenantId: "a", ownerId: 2, shared: true };
    expect(viewAccess(shared, ops)).toBe("edit");
    expect(viewAccess(shared, agent)).toBe("see");
    expect(viewAccess(shared, { ...ops, id: 9 })).toBe("see");
    expect(viewAccess(shared, manager)).toBe("edit");
    expect(viewAccess(shared, elsewhere)).toBe("out-of-scope");
  });
});
