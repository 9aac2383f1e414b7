import { describe, expect, it } from "vitest";
import { parseAuditSearch } from "./filters";

// Issue 11, item 6: a NUL in the audit explorer's actor filter reached the query and failed the page.

describe("parseAuditSearch", () => {
  it("a NUL in a filter is that filter's problem; the filter is dropped, the others kept", () => {
    const parsed = parseAuditSearch({ actor: "staff:a@example.com\u0000", source: "api", event: "pay\u0000" });
    expect(parsed.invalid).toEqual([
      { field: "actor", problem: { kind: "control-characters" } },
      { field: "event", problem: { kind: "control-characters" } },
    ]);
    expect(parsed.filters).toEqual({ source: "api" });
    expect(parsed.raw).toEqual({ source: "api" });
  });
});
