import { describe, expect, it } from "vitest";
import { signBody, verifySignature } from "./signature";

const now = new Date("2026-12-02T10:00:00Z");
const ts = String(now.getTime() / 1000);
const body = JSON.stringify({ orderNo: "A1", event: "pay" });

describe("webhook signatures", () => {
  it("is sha256=<hex HMAC-SHA256 of '<timestamp>.<body>'>", () => {
    // Reference value from openssl: printf '%s' "$ts.$body" | openssl dgst -sha256 -hmac s3cret
    expect(signBody("s3cret", "1796205600", '{"a":1}')).toBe(
      "sha256=1ad5a3d6972b636bd0833e30d8a97656af3e28cc9b4d4b5fca5709f1da41b093",
    );
    expect(signBody("s3cret", ts, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it("verifies what it signed, and nothing altered", () => {
    const signature = signBody("s3cret", ts, body);
    expect(verifySignature({ secret: "s3cret", signature, timestamp: ts, body, now })).toBe(true);
    expect(verifySignature({ secret: "other", signature, timestamp: ts, body, now })).toBe(false);
    expect(verifySignature({ secret: "s3cret", signature, timestamp: ts, body: body + " ", now })).toBe(false);
    expect(verifySignature({ secret: "s3cret", signature, timestamp: String(Number(ts) + 1), body, now })).toBe(false);
    expect(verifySignature({ secret: "s3cret", signature: undefined, timestamp: ts, body, now })).toBe(false);
  });

  it("refuses a timestamp outside the tolerance (a replay)", () => {
    const old = String(Number(ts) - 301);
    const signature = signBody("s3cret", old, body);
    expect(verifySignature({ secret: "s3cret", signature, timestamp: old, body, now })).toBe(false);
    expect(verifySignature({ secret: "s3cret", signature, timestamp: old, body, now, toleranceSeconds: 600 })).toBe(true);
  });
});
