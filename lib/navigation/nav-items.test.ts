import { describe, expect, it } from "vitest";
import { ROLES } from "@/lib/auth/permissions";
import { isCurrent, navFor } from "./nav-items";

const keys = (role: (typeof ROLES)[number]) => navFor(role).map(({ section, items }) => [section, items.map((i) => i.key)]);

describe("the navigation", () => {
  it("shows each role the sections and pages it may open, and no empty section", () => {
    expect(keys("agent")).toEqual([
      ["work", ["overview", "orders", "queues", "refundReviews"]],
      ["oversight", ["dashboard"]],
    ]);
    expect(keys("ops")).toEqual([
      ["work", ["overview", "orders", "queues", "refundReviews"]],
      ["money", ["bulk"]],
      ["oversight", ["dashboard", "deliveries"]],
    ]);
    expect(keys("manager")).toEqual([
      ["work", ["overview", "orders", "queues", "refundReviews"]],
      ["money", ["approvals", "bulk"]],
      ["oversight", ["audit", "dashboard", "deliveries", "settings"]],
    ]);
    expect(keys("admin")).toEqual([
      ["oversight", ["deliveries"]],
      ["admin", ["staff", "apiKeys", "apiDocs", "security"]],
    ]);
  });

  it("marks the page being shown: the overview only at /, every other page with what is below it", () => {
    expect(isCurrent("/", "/")).toBe(true);
    expect(isCurrent("/", "/orders")).toBe(false);
    expect(isCurrent("/orders", "/orders")).toBe(true);
    expect(isCurrent("/orders", "/orders/xiaoxiao/XX1")).toBe(true);
    expect(isCurrent("/orders", "/ordersx")).toBe(false);
    expect(isCurrent("/admin/api-keys", "/admin/api-docs")).toBe(false);
  });
});
