import { generateKeyPairSync } from "node:crypto";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it, vi } from "vitest";
import type { AppStoreApiKey } from "./server-api-keys";
import { APP_STORE_AUDIENCE, serverApiTokens, signServerApiToken } from "./server-api-token";

// The App Store Server API's bearer token, as Apple specifies it ("Generating JSON Web Tokens for API
// requests"): checked by verifying it as Apple would, with the key's public half.

function p256() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { pem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKey };
}

const pair = p256();
const KEY: AppStoreApiKey = { issuerId: "57246542-96fe-1a63-e053-0824d011072a", keyId: "2X9R4HXF34", privateKey: pair.pem };
const BUNDLE = "com.example.game";
const NOW = new Date("2026-12-03T10:00:00.250Z");
const MINUTE = 60_000;

describe("signServerApiToken", () => {
  it("is an ES256 JWT that verifies with the key's public half and carries exactly Apple's header and claims", async () => {
    const { token, issuedAt, expiresAt } = await signServerApiToken(KEY, BUNDLE, NOW);
    const { payload, protectedHeader } = await jwtVerify(token, pair.publicKey, { algorithms: ["ES256"], currentDate: NOW });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: KEY.keyId, typ: "JWT" });
    const iat = Math.floor(NOW.getTime() / 1000);
    expect(payload).toEqual({ iss: KEY.issuerId, iat, exp: iat + 20 * 60, aud: APP_STORE_AUDIENCE, bid: BUNDLE });
    // Apple refuses a token that lives longer than an hour.
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(3600);
    expect({ issuedAt, expiresAt }).toEqual({ issuedAt: iat * 1000, expiresAt: (iat + 1200) * 1000 });
  });

  it("does not verify with another key", async () => {
    const { token } = await signServerApiToken(KEY, BUNDLE, NOW);
    await expect(jwtVerify(token, p256().publicKey, { algorithms: ["ES256"], currentDate: NOW })).rejects.toThrow();
  });

  it("throws (for the caller to turn into an outcome) when the key is not a PKCS#8 EC key", async () => {
    await expect(signServerApiToken({ ...KEY, privateKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" }, BUNDLE, NOW)).rejects.toThrow();
  });
});

describe("serverApiTokens (the cache)", () => {
  const at = (minutes: number) => new Date(NOW.getTime() + minutes * MINUTE);

  it("reuses a token until five minutes before it ends, then signs a new one", async () => {
    const sign = vi.fn(signServerApiToken);
    const tokens = serverApiTokens(sign);
    const first = await tokens.token("t1", KEY, BUNDLE, at(0));
    expect(await tokens.token("t1", KEY, BUNDLE, at(0))).toBe(first);
    expect(await tokens.token("t1", KEY, BUNDLE, at(14.9))).toBe(first);
    expect(sign).toHaveBeenCalledTimes(1);

    const renewed = await tokens.token("t1", KEY, BUNDLE, at(15));
    expect(renewed).not.toBe(first);
    expect(sign).toHaveBeenCalledTimes(2);
    // The renewed token is itself valid well past the old one's end, and is now the one reused.
    const { payload } = await jwtVerify(renewed, pair.publicKey, { algorithms: ["ES256"], currentDate: at(25) });
    expect(payload.iat).toBe(Math.floor(at(15).getTime() / 1000));
    expect(await tokens.token("t1", KEY, BUNDLE, at(16))).toBe(renewed);
    expect(sign).toHaveBeenCalledTimes(2);
  });

  it("keeps one token per tenant, key and app", async () => {
    const sign = vi.fn(signServerApiToken);
    const tokens = serverApiTokens(sign);
    const other = { ...KEY, keyId: "OTHERKEY01" };
    const issued = [
      await tokens.token("t1", KEY, BUNDLE, NOW),
      await tokens.token("t2", KEY, BUNDLE, NOW),
      await tokens.token("t1", other, BUNDLE, NOW),
      await tokens.token("t1", KEY, "com.example.other", NOW),
    ];
    expect(new Set(issued).size).toBe(4);
    expect(sign).toHaveBeenCalledTimes(4);
    expect(decodeProtectedHeader(issued[2]!).kid).toBe("OTHERKEY01");
    expect(await tokens.token("t2", KEY, BUNDLE, NOW)).toBe(issued[1]);
  });

  it("does not hand out a token issued after the clock's now (a clock that went back)", async () => {
    const tokens = serverApiTokens();
    const later = await tokens.token("t1", KEY, BUNDLE, at(10));
    const earlier = await tokens.token("t1", KEY, BUNDLE, at(0));
    expect(earlier).not.toBe(later);
    expect((await jwtVerify(earlier, pair.publicKey, { currentDate: at(0) })).payload.iat).toBe(Math.floor(at(0).getTime() / 1000));
  });
});
