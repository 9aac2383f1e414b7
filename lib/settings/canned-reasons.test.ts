import { describe, expect, it } from "vitest";
import { CONSOLE_EVENTS } from "@/lib/auth/permissions";
import { CANNED_REASON_EVENTS, storedCannedReasons } from "./canned-reasons";

describe("canned reasons", () => {
  it("are kept for the events someone may send from the console, and for no other (a store's reverse-refund)", () => {
    const sendable = new Set(Object.values(CONSOLE_EVENTS).flat());
    expect([...CANNED_REASON_EVENTS].sort()).toEqual([...sendable].sort());
    expect(CANNED_REASON_EVENTS).not.toContain("reverse-refund");
  });

  it("drop a stored list for an event no form offers", () => {
    const stored = storedCannedReasons.parse({ "reverse-refund": ["the store reversed it"], close: ["player gave up buying"] });
    expect(stored).toEqual({ close: ["player gave up buying"] });
  });
});
