import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddress, resolveClientAddress, trustedProxies } from "./client-address";

describe("resolveClientAddress without TRUSTED_PROXIES (the default)", () => {
  const none = trustedProxies("");

  it("is the socket's peer: a forged X-Forwarded-For names nobody", () => {
    expect(resolveClientAddress("198.51.100.4", "203.0.113.7", none)).toBe("198.51.100.4");
    expect(resolveClientAddress("198.51.100.4", ["203.0.113.7, 10.0.0.1"], none)).toBe("198.51.100.4");
    expect(resolveClientAddress("::ffff:198.51.100.4", undefined, none)).toBe("198.51.100.4");
    expect(resolveClientAddress("2001:DB8::9", undefined, none)).toBe("2001:db8::9");
  });

  it("is unknown only when the socket is gone", () => {
    expect(resolveClientAddress(undefined, "203.0.113.7", none)).toBeNull();
  });

  it("reads the setting from the environment", () => {
    expect(trustedProxies(undefined).empty).toBe(!process.env.TRUSTED_PROXIES);
  });
});

describe("resolveClientAddress behind trusted proxies", () => {
  const proxies = trustedProxies("10.0.0.0/8, 127.0.0.1 ::1,fd00::/8");

  it("is the right-most hop that no trusted proxy added", () => {
    expect(resolveClientAddress("10.0.0.2", "203.0.113.7", proxies)).toBe("203.0.113.7");
    expect(resolveClientAddress("10.0.0.2", "203.0.113.7, 10.1.2.3", proxies)).toBe("203.0.113.7");
    expect(resolveClientAddress("127.0.0.1", "203.0.113.7, 10.1.2.3, 127.0.0.1", proxies)).toBe("203.0.113.7");
  });

  it("believes no header from a peer that is not a trusted proxy", () => {
    expect(resolveClientAddress("198.51.100.4", "203.0.113.7", proxies)).toBe("198.51.100.4");
    expect(resolveClientAddress("198.51.100.4", "10.0.0.1", proxies)).toBe("198.51.100.4");
  });

  it("ignores what the client wrote to the left of the hop our proxy saw", () => {
    expect(resolveClientAddress("10.0.0.2", "198.51.100.1, 203.0.113.7, 10.1.2.3", proxies)).toBe("203.0.113.7");
    expect(resolveClientAddress("10.0.0.2", "not-an-address, 203.0.113.7", proxies)).toBe("203.0.113.7");
  });

  it("joins repeated headers in order", () => {
    expect(resolveClientAddress("10.0.0.2", ["198.51.100.1", "203.0.113.7, 10.0.0.5"], proxies)).toBe("203.0.113.7");
  });

  it("normalises ports, brackets and IPv4-mapped IPv6", () => {
    expect(resolveClientAddress("::ffff:10.0.0.2", "203.0.113.7:51234", proxies)).toBe("203.0.113.7");
    expect(resolveClientAddress("10.0.0.2", "[2001:db8::1]:443", proxies)).toBe("2001:db8::1");
    expect(resolveClientAddress("10.0.0.2", "2001:DB8::1, ::ffff:10.0.0.1", proxies)).toBe("2001:db8::1");
    expect(resolveClientAddress("10.0.0.2", "::ffff:203.0.113.7", proxies)).toBe("203.0.113.7");
  });

  it("is the proxy itself when every hop is trusted (its own health checks)", () => {
    expect(resolveClientAddress("127.0.0.1", undefined, proxies)).toBe("127.0.0.1");
    expect(resolveClientAddress("10.0.0.1", "10.0.0.9", proxies)).toBe("10.0.0.9");
  });

  it("is unknown when the hop to believe is not an address", () => {
    expect(resolveClientAddress("10.0.0.1", "203.0.113.7, garbage", proxies)).toBeNull();
    expect(resolveClientAddress("10.0.0.1", "", proxies)).toBe("10.0.0.1");
  });
});

describe("clientAddress", () => {
  it("reads only the listener's header, and only an address", () => {
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "203.0.113.7" }))).toBe("203.0.113.7");
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: "2001:db8::1" })).toBe("2001:db8::1");
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.7" }))).toBeNull();
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "garbage" }))).toBeNull();
    expect(clientAddress(undefined)).toBeNull();
  });
});

describe("trustedProxies", () => {
  it.each(["10.0.0.0/33", "proxy.internal", "10.0.0.1/8/1", "::1/129", "10.0.0.1/x"])("refuses the malformed entry %j", (setting) => {
    expect(() => trustedProxies(setting)).toThrow(/TRUSTED_PROXIES/);
  });
});
