import { X509Certificate } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { signAsApple, testAppleChain, type TestAppleChain } from "@/lib/test/apple-store";
import { APPLE_ROOT_CA_G3_PEM } from "./root";
import { derOid, verifySigned } from "./verify-signed";

let chain: TestAppleChain;
let other: TestAppleChain;
let unmarked: TestAppleChain;
let roots: X509Certificate[];
const now = new Date(Date.UTC(2026, 11, 3));
const payload = { notificationType: "TEST", notificationUUID: "n-1", signedDate: now.getTime() };

beforeAll(async () => {
  [chain, other, unmarked] = await Promise.all([testAppleChain(), testAppleChain({ name: "Other" }), testAppleChain({ markers: false, name: "Plain" })]);
  roots = [new X509Certificate(APPLE_ROOT_CA_G3_PEM), new X509Certificate(chain.rootPem), new X509Certificate(unmarked.rootPem)];
});

describe("verifySigned", () => {
  it("accepts a payload signed by a leaf that chains to a pinned root, and returns it", async () => {
    expect(await verifySigned(await signAsApple(chain, payload), roots, now)).toEqual({ ok: true, payload });
  });

  it("refuses a chain that ends in any other root, however well formed", async () => {
    expect(await verifySigned(await signAsApple(other, payload), roots, now)).toEqual({ ok: false, reason: "untrusted-root" });
    // Apple's root alone trusts nothing the tests sign.
    expect(await verifySigned(await signAsApple(chain, payload), [new X509Certificate(APPLE_ROOT_CA_G3_PEM)], now)).toEqual({ ok: false, reason: "untrusted-root" });
  });

  it("refuses another chain's leaf presented under the trusted root (the chain is checked link by link)", async () => {
    const jws = await signAsApple(other, payload, { x5c: [other.x5c[0], chain.x5c[1], chain.x5c[2]] });
    expect(await verifySigned(jws, roots, now)).toEqual({ ok: false, reason: "chain-broken" });
  });

  it("refuses certificates without Apple's App Store markers", async () => {
    expect(await verifySigned(await signAsApple(unmarked, payload), roots, now)).toEqual({ ok: false, reason: "not-app-store-certificate" });
  });

  it("refuses a tampered payload, an unsigned one, a wrong algorithm and a short chain", async () => {
    const [h, , s] = (await signAsApple(chain, payload)).split(".");
    const forged = Buffer.from(JSON.stringify({ ...payload, notificationType: "REFUND" })).toString("base64url");
    expect(await verifySigned(`${h}.${forged}.${s}`, roots, now)).toEqual({ ok: false, reason: "signature" });
    const none = `${Buffer.from(JSON.stringify({ alg: "none", x5c: chain.x5c })).toString("base64url")}.${forged}.`;
    expect(await verifySigned(none, roots, now)).toEqual({ ok: false, reason: "algorithm" });
    expect(await verifySigned("not a jws", roots, now)).toEqual({ ok: false, reason: "malformed" });
    expect(await verifySigned(await signAsApple(chain, payload, { x5c: chain.x5c.slice(0, 2) }), roots, now)).toEqual({ ok: false, reason: "chain-length" });
  });

  it("checks validity at the payload's signedDate", async () => {
    const old = { ...payload, signedDate: Date.UTC(2019, 0, 1) };
    expect(await verifySigned(await signAsApple(chain, old), roots, now)).toEqual({ ok: false, reason: "expired" });
  });

  it("encodes OIDs as DER", () => {
    expect(derOid("1.2.840.113635.100.6.11.1").toString("hex")).toBe("060a2a864886f76364060b01");
  });
});
