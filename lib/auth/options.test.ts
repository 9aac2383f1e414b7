import { afterEach, describe, expect, it, vi } from "vitest";
import { authOptionsFor } from "./options";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("next-auth's redirect callback", () => {
  const redirect = (url: string) => authOptionsFor(new Headers()).callbacks!.redirect!({ url, baseUrl: "http://console.example" });

  it("keeps paths and URLs on this site", () => {
    expect(redirect("/orders?state=paid")).toBe("http://console.example/orders?state=paid");
    expect(redirect("http://console.example/audit#top")).toBe("http://console.example/audit#top");
  });

  it.each(["/\\evil.example/x", "/\t/evil.example/x", "//evil.example", "https://evil.example/x", "http://console.example.evil.example/"])(
    "sends %j home instead",
    async (url) => {
      expect(await redirect(url)).toBe("http://console.example/");
    },
  );
});

describe("authOptionsFor", () => {
  it("makes the session cookie Secure only for requests that came over HTTPS", () => {
    vi.stubEnv("NEXTAUTH_URL", "");
    expect(authOptionsFor(new Headers()).useSecureCookies).toBe(false);
    expect(authOptionsFor(new Headers({ "x-forwarded-proto": "https" })).useSecureCookies).toBe(true);
  });
});
