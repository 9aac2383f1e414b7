import { describe, expect, it } from "vitest";
import { wellFormedPath } from "@/lib/http/page-address";
import { deliveryHref, orderHref, playerHref, RECORD_PAGES, recordOfPath, refundReviewHref, staffUserHref } from "@/lib/http/record-pages";
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

  it("a record page's address gives its record by name, decoded; another address or a segment naming nothing gives none", () => {
    expect(recordOfPath(RECORD_PAGES.order, "/orders/xiaoxiao/A%2FB")).toEqual({ tenant: "xiaoxiao", orderNo: "A/B" });
    expect(recordOfPath(RECORD_PAGES.player, "/players/fangzhou/%E4%B8%AD/")).toEqual({ tenant: "fangzhou", playerId: "中" });
    expect(recordOfPath(RECORD_PAGES.staffUser, "/admin/users/42")).toEqual({ id: "42" });
    expect(recordOfPath(RECORD_PAGES.staffUser, "/admin/users/new")).toBeNull();
    expect(recordOfPath(RECORD_PAGES.refundReview, "/refund-reviews/1%00")).toBeNull();
    expect(recordOfPath(RECORD_PAGES.order, "/orders/xiaoxiao/XX-1/more")).toBeNull();
    // The shell as the build renders it, under its locale.
    expect(recordOfPath(RECORD_PAGES.order, "/en/orders/_/_")).toEqual({ tenant: "_", orderNo: "_" });
  });

  it("a link to a record is the address its page reads the same record back from, whatever the characters", () => {
    const odd = "A/B ?#%中";
    expect(orderHref("xiao xiao", odd)).toBe("/orders/xiao%20xiao/A%2FB%20%3F%23%25%E4%B8%AD");
    expect(recordOfPath(RECORD_PAGES.order, orderHref("xiao xiao", odd))).toEqual({ tenant: "xiao xiao", orderNo: odd });
    expect(recordOfPath(RECORD_PAGES.player, playerHref("fangzhou", odd))).toEqual({ tenant: "fangzhou", playerId: odd });
    expect(recordOfPath(RECORD_PAGES.refundReview, refundReviewHref(7))).toEqual({ id: "7" });
    expect(recordOfPath(RECORD_PAGES.delivery, deliveryHref(12))).toEqual({ id: "12" });
    expect(recordOfPath(RECORD_PAGES.staffUser, staffUserHref(42))).toEqual({ id: "42" });
  });
});
