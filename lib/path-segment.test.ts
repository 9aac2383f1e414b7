import { describe, expect, it } from "vitest";
import { wellFormedPath } from "@/lib/http/page-address";
import { decodePathSegment } from "./path-segment";

// Issue 11, items 6 and 7: a record's address segments are decoded once, safely (the record shells'
// views, proxy.ts); a request path whose escapes do not decode names nothing.

describe("path segments", () => {
  it("decode once; a malformed escape or a NUL names nothing", () => {
    expect(decodePathSegment("A%2FB")).toBe("A/B");
    expect(decodePathSegment("%E4%B8%AD")).toBe("中");
    expect(decodePathSegment("a%2525b")).toBe("a%25b");
    expect(decodePathSegment("%E0%A4%A")).toBeNull();
    expect(decodePathSegment("%ED%A0%80")).toBeNull();
    expect(decodePathSegment("X-1%00")).toBeNull();
    expect(decodePathSegment("X-1\u0000")).toBeNull();
  });

  it("a request path is well formed when every escape decodes", () => {
    expect(wellFormedPath("/orders/t/%E4%B8%AD")).toBe(true);
    expect(wellFormedPath("/orders/t/%E0%A4%A")).toBe(false);
    expect(wellFormedPath("/api/v1/orders/%ED%A0%80")).toBe(false);
  });
});
