import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { lookupAppStoreApiKey, parseAppStoreApiKeys } from "./server-api-keys";

// APPLE_STORE_API_KEYS: each tenant's entry stands alone, and whatever is wrong is named by tenant
// and field — never by printing what was configured, which may be the key.

const PEM = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const RSA_PEM = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const entry = { issuerId: "57246542-96fe-1a63-e053-0824d011072a", keyId: "2X9R4HXF34", privateKey: PEM };
const noFiles = (path: string): string => {
  throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: "ENOENT" });
};
const parse = (value: unknown, readFile = noFiles) => parseAppStoreApiKeys(typeof value === "string" ? value : JSON.stringify(value), readFile);

describe("parseAppStoreApiKeys", () => {
  it("reads a key given inline or by path, per tenant", () => {
    const keys = parse({ a: entry, b: { issuerId: "i", keyId: "k", privateKeyPath: "/keys/AuthKey_k.p8" } }, (path) => (path === "/keys/AuthKey_k.p8" ? PEM : noFiles(path)));
    expect(keys.problems).toEqual([]);
    expect(lookupAppStoreApiKey(keys, "a")).toEqual({ kind: "configured", key: entry });
    expect(lookupAppStoreApiKey(keys, "b")).toEqual({ kind: "configured", key: { issuerId: "i", keyId: "k", privateKey: PEM } });
    expect(lookupAppStoreApiKey(keys, "c")).toEqual({ kind: "not-configured" });
  });

  it("takes a PEM whose newlines arrived as literal \\n", () => {
    const keys = parse({ a: { ...entry, privateKey: PEM.replace(/\n/g, "\\n") } });
    expect(lookupAppStoreApiKey(keys, "a")).toEqual({ kind: "configured", key: entry });
  });

  it("no value configures no tenant, without a problem", () => {
    expect(parseAppStoreApiKeys(undefined, noFiles)).toEqual({ keys: new Map(), problems: [] });
    expect(parseAppStoreApiKeys("  ", noFiles)).toEqual({ keys: new Map(), problems: [] });
  });

  it.each([
    ["a missing issuer id", { keyId: "k", privateKey: PEM }, "issuerId"],
    ["an empty key id", { ...entry, keyId: " " }, "keyId"],
    ["a misspelt field", { ...entry, privatekey: "x" }, "privatekey"],
    ["both a key and a path", { ...entry, privateKeyPath: "/k.p8" }, "privateKey"],
    ["neither a key nor a path", { issuerId: "i", keyId: "k" }, "privateKey"],
    ["an RSA key", { ...entry, privateKey: RSA_PEM }, "privateKey"],
    ["a key that is not PEM", { ...entry, privateKey: "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg" }, "privateKey"],
    ["a path that cannot be read", { issuerId: "i", keyId: "k", privateKeyPath: "/nowhere/AuthKey.p8" }, "privateKeyPath"],
    ["an entry that is not an object", "a key", "(entry)"],
  ])("names the tenant and field of %s, leaves the other tenants usable and never repeats the value", (_, bad, field) => {
    const keys = parse({ broken: bad, fine: entry });
    expect(keys.problems).toHaveLength(1);
    expect(keys.problems[0]).toMatchObject({ tenantId: "broken", field });
    expect(lookupAppStoreApiKey(keys, "broken")).toEqual({ kind: "invalid", field });
    expect(lookupAppStoreApiKey(keys, "fine")).toMatchObject({ kind: "configured" });
    const said = JSON.stringify(keys.problems);
    expect(said).not.toContain("BEGIN");
    expect(said).not.toContain("MIGTAgEA");
  });

  it("a value that is not JSON makes every tenant's key invalid, without quoting the text", () => {
    const raw = `{"a": {"issuerId": "i", "keyId": "k", "privateKey": "${PEM.replace(/\n/g, "\\n")}"`;
    const keys = parse(raw);
    expect(keys.problems).toEqual([{ tenantId: null, field: "APPLE_STORE_API_KEYS", problem: "is not valid JSON" }]);
    expect(lookupAppStoreApiKey(keys, "a")).toEqual({ kind: "invalid", field: "APPLE_STORE_API_KEYS" });
    expect(parse([entry]).problems).toEqual([{ tenantId: null, field: "APPLE_STORE_API_KEYS", problem: "is not a JSON object of tenant ids" }]);
  });
});
