import { describe, expect, it } from "vitest";
import { ordersHref, readViewFilters, viewFiltersOf, viewHref } from "./view-filters";

describe("a view's filters", () => {
  it("keep only what is set, and the zone only beside a day", () => {
    expect(viewFiltersOf({ q: "", state: undefined, from: "", to: "", tz: "Asia/Shanghai", stuck: false })).toEqual({});
    expect(viewFiltersOf({ state: "paid", from: "2026-11-01", tz: "Asia/Shanghai", stuck: true })).toEqual({ state: "paid", from: "2026-11-01", tz: "Asia/Shanghai", stuck: true });
    // UTC is the default: not written.
    expect(viewFiltersOf({ to: "2026-11-01", tz: "UTC" })).toEqual({ to: "2026-11-01" });
    // An alias is kept by its canonical name (the database knows that one).
    expect(viewFiltersOf({ from: "2026-11-01", tz: "Asia/Calcutta" }).tz).toMatch(/^Asia\/(Kolkata|Calcutta)$/);
  });

  it("are read back leniently: what this version no longer understands is dropped, the rest kept", () => {
    expect(readViewFilters({ state: "paid", stuck: true, q: "p-1", from: "2026-13-45", tz: "Mars/Olympus_Mons", extra: 1 })).toEqual({ state: "paid", stuck: true, q: "p-1" });
    expect(readViewFilters({ state: "PAID", to: "2026-11-02", tz: "Europe/Berlin" })).toEqual({ to: "2026-11-02", tz: "Europe/Berlin" });
    for (const junk of [null, "x", 3, [], [{ state: "paid" }]]) expect(readViewFilters(junk)).toEqual({});
  });
});

describe("the orders list's links", () => {
  it("are the page's own query string, in the form's order", () => {
    expect(ordersHref({})).toBe("/orders");
    expect(ordersHref({ stuck: true })).toBe("/orders?stuck=1");
    expect(ordersHref({ q: "rf 7&x", tenant: "xiaoxiao", state: "paid", from: "2026-11-01", to: "2026-11-02", tz: "Asia/Shanghai", stuck: true })).toBe(
      "/orders?q=rf+7%26x&tenant=xiaoxiao&state=paid&from=2026-11-01&to=2026-11-02&tz=Asia%2FShanghai&stuck=1",
    );
    // A zone says nothing without a day.
    expect(ordersHref({ tz: "Asia/Shanghai", state: "created" })).toBe("/orders?state=created");
  });

  it("name the view they open", () => {
    expect(viewHref({ id: 7, tenantId: "fangzhou", filters: { state: "refunding", stuck: true } })).toBe("/orders?tenant=fangzhou&state=refunding&stuck=1&view=7");
    expect(viewHref({ id: 8, tenantId: null, filters: {} })).toBe("/orders?view=8");
  });
});
