import { afterEach, describe, expect, it, vi } from "vitest";
import { contentSecurityPolicy, newNonce, servedOverHttps } from "./security-headers";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("contentSecurityPolicy", () => {
  it("in production: scripts and style elements only with the nonce, never eval; no framing", () => {
    const csp = contentSecurityPolicy("abc123", { dev: false, https: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic';");
    expect(csp).toContain("style-src 'self' 'nonce-abc123';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("in development: what React's dev build needs; over HTTPS: subresources upgraded", () => {
    expect(contentSecurityPolicy("n", { dev: true, https: false })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy("n", { dev: false, https: true })).toContain("upgrade-insecure-requests");
  });
});

describe("newNonce", () => {
  it("is fresh every time and fits a CSP nonce source", () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newNonce()));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("servedOverHttps", () => {
  it("trusts NEXTAUTH_URL, else the proxy's X-Forwarded-Proto (first hop)", () => {
    vi.stubEnv("NEXTAUTH_URL", "");
    expect(servedOverHttps(new Headers())).toBe(false);
    expect(servedOverHttps(new Headers({ "x-forwarded-proto": "https" }))).toBe(true);
    expect(servedOverHttps({ "x-forwarded-proto": "https, http" })).toBe(true);
    expect(servedOverHttps({ "x-forwarded-proto": "http" })).toBe(false);
    vi.stubEnv("NEXTAUTH_URL", "https://console.example.com");
    expect(servedOverHttps(new Headers())).toBe(true);
  });
});
