import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./safe-redirect";

// Each refused case is one a browser (WHATWG URL parsing) would turn into another host, or that a
// decoding step downstream could; the kept ones are what our own pages put in callbackUrl.

describe("safeCallbackPath", () => {
  it.each([
    ["/", "/"],
    ["/orders", "/orders"],
    ["/orders?state=paid&tenant=xiaoxiao", "/orders?state=paid&tenant=xiaoxiao"],
    ["/orders/xiaoxiao/XX-1#history", "/orders/xiaoxiao/XX-1#history"],
    ["/orders?q=%2F%2Fnot-a-host", "/orders?q=%2F%2Fnot-a-host"],
    ["/audit?actor=a%40b.example", "/audit?actor=a%40b.example"],
    ["/a/../orders", "/orders"],
    ["/orders/%E4%B8%AD", "/orders/%E4%B8%AD"],
    ["/orders/中", "/orders/%E4%B8%AD"],
  ])("keeps the same-site path %j as %j", (raw, expected) => {
    expect(safeCallbackPath(raw)).toBe(expected);
  });

  it.each([
    // another host, spelled the many ways browsers accept
    "//evil.example/x",
    "///evil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "/\\/evil.example/x",
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "/\r\n/evil.example/x",
    "\t//evil.example/x",
    " //evil.example/x",
    "/.//evil.example/x",
    "/./\\evil.example",
    "/%2F/evil.example/x",
    "/%2f%2fevil.example/x",
    "/%5Cevil.example/x",
    "/%5c/evil.example/x",
    // absolute URLs and other schemes
    "http://evil.example/x",
    "https:evil.example",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example/x",
    "@evil.example",
    "user@evil.example/x",
    // NUL and other controls anywhere
    "/orders\u0000",
    "/orders\u007f",
    // not a path at all
    "",
    "?next=/x",
    "#x",
    "/" + "a".repeat(3000),
  ])("refuses %j", (raw) => {
    expect(safeCallbackPath(raw)).toBe("/");
  });

  it("keeps an @ inside a same-site path (it names no host there)", () => {
    expect(safeCallbackPath("/@evil.example")).toBe("/@evil.example");
  });

  it("answers the fallback for missing values, and the fallback given", () => {
    expect(safeCallbackPath(undefined)).toBe("/");
    expect(safeCallbackPath(null, "/orders")).toBe("/orders");
    expect(safeCallbackPath("//evil.example", "/dashboard")).toBe("/dashboard");
  });
});
