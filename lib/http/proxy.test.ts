import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { NOT_FOUND_PATH } from "./page-address";

// proxy.ts (next to app/): which page answers an address a person uses. The address never carries
// the locale; the page's file does.

const SESSION = "next-auth.session-token=x";

function answer(path: string, headers: Record<string, string> = {}) {
  const response = proxy(new NextRequest(`http://console.test${path}`, { headers }));
  return {
    status: response.status,
    rewrite: response.headers.get("x-middleware-rewrite")?.replace("http://console.test", "") ?? null,
    location: response.headers.get("location")?.replace("http://console.test", "") ?? null,
  };
}

describe("proxy: the page that answers an address", () => {
  it("is the page under the locale of the locale cookie, else of the browser's language", () => {
    expect(answer("/orders?state=paid", { cookie: `${SESSION}; orderops-locale=zh` }).rewrite).toBe("/zh/orders?state=paid");
    expect(answer("/orders", { cookie: SESSION, "accept-language": "zh-CN,zh;q=0.9" }).rewrite).toBe("/zh/orders");
    expect(answer("/orders", { cookie: `${SESSION}; orderops-locale=en`, "accept-language": "zh-CN" }).rewrite).toBe("/en/orders");
    expect(answer("/", { cookie: SESSION }).rewrite).toBe("/en");
    expect(answer("/sign-in?callbackUrl=%2Fqueues").rewrite).toBe("/en/sign-in?callbackUrl=%2Fqueues");
  });

  it("is the one order shell for every order, and not found for an order address holding a NUL", () => {
    expect(answer("/orders/xiaoxiao/XX-1", { cookie: SESSION }).rewrite).toBe("/en/orders/_/_");
    expect(answer("/orders/xiaoxiao/A%2FB", { cookie: SESSION }).rewrite).toBe("/en/orders/_/_");
    expect(answer("/orders/xiaoxiao/X%00", { cookie: SESSION }).rewrite).toBe(`/en${NOT_FOUND_PATH}`);
    // Deeper or shallower addresses are other pages (or none: app/[locale]/[...rest]).
    expect(answer("/orders/xiaoxiao/XX-1/more", { cookie: SESSION }).rewrite).toBe("/en/orders/xiaoxiao/XX-1/more");
  });

  it("is the one refund review shell for every review", () => {
    expect(answer("/refund-reviews/12", { cookie: SESSION }).rewrite).toBe("/en/refund-reviews/_");
    expect(answer("/refund-reviews/12/", { cookie: `${SESSION}; orderops-locale=zh` }).rewrite).toBe("/zh/refund-reviews/_");
    expect(answer("/refund-reviews/1%00", { cookie: SESSION }).rewrite).toBe(`/en${NOT_FOUND_PATH}`);
    // The list is its own page.
    expect(answer("/refund-reviews", { cookie: SESSION }).rewrite).toBe("/en/refund-reviews");
  });

  it("is the one player shell for every player, whatever page of their orders", () => {
    expect(answer("/players/xiaoxiao/p-1?after=2026-01-01T00:00:00.000000Z_7", { cookie: SESSION }).rewrite).toBe("/en/players/_/_?after=2026-01-01T00:00:00.000000Z_7");
    expect(answer("/players/xiaoxiao/p%00", { cookie: SESSION }).rewrite).toBe(`/en${NOT_FOUND_PATH}`);
  });

  it("is the one staff member shell for every account, but the create form is its own page", () => {
    expect(answer("/admin/users/42", { cookie: SESSION }).rewrite).toBe("/en/admin/users/_");
    expect(answer("/admin/users/42/", { cookie: `${SESSION}; orderops-locale=zh` }).rewrite).toBe("/zh/admin/users/_");
    expect(answer("/admin/users/newer", { cookie: SESSION }).rewrite).toBe("/en/admin/users/_");
    expect(answer("/admin/users/new", { cookie: SESSION }).rewrite).toBe("/en/admin/users/new");
    expect(answer("/admin/users/new/", { cookie: SESSION }).rewrite).toBe("/en/admin/users/new/");
    expect(answer("/admin/users", { cookie: SESSION }).rewrite).toBe("/en/admin/users");
    expect(answer("/admin/users/4%002", { cookie: SESSION }).rewrite).toBe(`/en${NOT_FOUND_PATH}`);
  });

  it("sends an address naming a locale to the one without it, and a browser without a session to sign-in", () => {
    expect(answer("/zh/orders?x=1", { cookie: SESSION })).toMatchObject({ status: 307, location: "/orders?x=1" });
    expect(answer("/queues?cases=mine")).toMatchObject({ status: 307, location: "/sign-in?callbackUrl=%2Fqueues%3Fcases%3Dmine" });
  });

  it("leaves the API to its routes, except an address that does not decode", () => {
    expect(answer("/api/console/me").rewrite).toBeNull();
    expect(answer("/api/auth/%E0%A4%A").status).toBe(404);
  });
});
