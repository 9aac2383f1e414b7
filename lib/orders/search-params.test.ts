import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { knownTimeZone, parseOrderSearch } from "./search-params";

// Issue 11, item 7 (and 6 for the search box): the orders page reads its URL field by field; a value
// that is not one is ignored with a note, never an error screen.

describe("parseOrderSearch", () => {
  it("a day that has the shape of a date but is none (2026-13-45) is ignored, not thrown on", () => {
    const parsed = parseOrderSearch({ from: "2026-13-45", to: "2026-02-30" });
    expect(parsed.invalid).toEqual({ from: { kind: "invalid" }, to: { kind: "invalid" } });
    expect(parsed.values).toEqual({ tz: "UTC" });
    expect(parseOrderSearch({ from: "2026-02-28" }).values.from).toBe("2026-02-28");
  });

  it("a zone is handed on by its canonical name, which the database knows too", () => {
    // US/Pacific-New left the tz database in 2020; ICU still maps it to Los Angeles, PostgreSQL refuses it.
    expect(parseOrderSearch({ tz: "US/Pacific-New" })).toMatchObject({ values: { tz: "America/Los_Angeles" }, unknownZone: null });
    expect(parseOrderSearch({ tz: "europe/paris" }).values.tz).toBe("Europe/Paris");
    expect(parseOrderSearch({ tz: "UTC" }).values.tz).toBe("UTC");
  });

  it("an unknown zone falls back to UTC and says which zone it was", () => {
    expect(parseOrderSearch({ tz: "Mars/Olympus_Mons", from: "2026-01-01" })).toEqual({
      values: { from: "2026-01-01", tz: "UTC" },
      invalid: {},
      unknownZone: "Mars/Olympus_Mons",
    });
    expect(parseOrderSearch({ tz: "x".repeat(100) }).unknownZone).toBe("x".repeat(64));
    expect(parseOrderSearch({ tz: "" }).unknownZone).toBeNull();
  });

  it("a NUL in any field is that field's problem; the field is ignored", () => {
    const parsed = parseOrderSearch({ q: "p-1\u0000", tenant: "\u0000", state: "paid", tz: "UTC\u0000" });
    expect(parsed.invalid).toEqual({ q: { kind: "control-characters" }, tenant: { kind: "control-characters" } });
    expect(parsed.values).toEqual({ state: "paid", tz: "UTC" });
    expect(parsed.unknownZone).toBe("UTC\ufffd");
  });

  it("never throws, and always hands on a zone it knows, whatever the URL says", () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("2026-13-45", "US/Pacific-New", "Etc/GMT+5", "\u0000"));
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.constant(undefined));
    fc.assert(
      fc.property(fc.record({ q: value, tenant: value, state: value, from: value, to: value, tz: value, stuck: value }, { requiredKeys: [] }), (params) => {
        const parsed = parseOrderSearch(params);
        expect(knownTimeZone(parsed.values.tz)).toBe(parsed.values.tz);
      }),
      { numRuns: 500 },
    );
  });
});
