import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxies } from "./client-address";

const headers = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("clientAddress without TRUSTED_PROXIES (the default)", () => {
  const none = trustedProxies("");

  it("believes no header: a forged X-Forwarded-For names nobody", () => {
    expect(clientAddress(headers("203.0.113.7"), none)).toBeNull();
    expect(clientAddress(headers("203.0.113.7, 10.0.0.1"), none)).toBeNull();
    expect(clientAddress(new Headers({ "x-real-ip": "203.0.113.7" }), none)).toBeNull();
    expect(clientAddress(headers(), none)).toBeNull();
  });

  it("reads the setting from the environment", () => {
    expect(trustedProxies(undefined).empty).toBe(!process.env.TRUSTED_PROXIES);
  });
});

describe("clientAddress behind trusted proxies", () => {
  const proxies = trustedProxies("10.0.0.0/8, 127.0.0.1 ::1,fd00::/8");

  it("is the right-most hop that no trusted proxy added", () => {
    expect(clientAddress(headers("203.0.113.7"), proxies)).toBe("203.0.113.7");
    expect(clientAddress(headers("203.0.113.7, 10.1.2.3"), proxies)).toBe("203.0.113.7");
    expect(clientAddress(headers("203.0.113.7, 10.1.2.3, 127.0.0.1"), proxies)).toBe("203.0.113.7");
  });

  it("ignores what the client wrote to the left of the hop our proxy saw", () => {
    expect(clientAddress(headers("198.51.100.1, 203.0.113.7, 10.1.2.3"), proxies)).toBe("203.0.113.7");
    expect(clientAddress(headers("not-an-address, 203.0.113.7"), proxies)).toBe("203.0.113.7");
  });

  it("joins repeated headers in order", () => {
    expect(clientAddress({ "x-forwarded-for": ["198.51.100.1", "203.0.113.7, 10.0.0.5"] }, proxies)).toBe("203.0.113.7");
    expect(clientAddress({ "x-forwarded-for": "203.0.113.9" }, proxies)).toBe("203.0.113.9");
  });

  it("normalises ports, brackets and IPv4-mapped IPv6", () => {
    expect(clientAddress(headers("203.0.113.7:51234"), proxies)).toBe("203.0.113.7");
    expect(clientAddress(headers("[2001:db8::1]:443"), proxies)).toBe("2001:db8::1");
    expect(clientAddress(headers("2001:DB8::1, ::ffff:10.0.0.1"), proxies)).toBe("2001:db8::1");
    expect(clientAddress(headers("::ffff:203.0.113.7"), proxies)).toBe("203.0.113.7");
  });

  it("is the proxy itself when every hop is trusted (its own health checks, or a browser on loopback)", () => {
    expect(clientAddress(headers("127.0.0.1"), proxies)).toBe("127.0.0.1");
    expect(clientAddress(headers("10.0.0.9, 10.0.0.1"), proxies)).toBe("10.0.0.9");
  });

  it("is unknown when the hop to believe is not an address, or there is no header", () => {
    expect(clientAddress(headers("203.0.113.7, garbage, 10.0.0.1"), proxies)).toBeNull();
    expect(clientAddress(headers(""), proxies)).toBeNull();
    expect(clientAddress(headers(), proxies)).toBeNull();
    expect(clientAddress(undefined, proxies)).toBeNull();
  });
});

describe("trustedProxies", () => {
  it.each(["10.0.0.0/33", "proxy.internal", "10.0.0.1/8/1", "::1/129", "10.0.0.1/x"])("refuses the malformed entry %j", (setting) => {
    expect(() => trustedProxies(setting)).toThrow(/TRUSTED_PROXIES/);
  });
});
