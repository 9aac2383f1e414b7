import "server-only";
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { logger } from "@/lib/log";

// Each tenant's In-App Purchase key for the App Store Server API (App Store Connect → Users and
// Access → Integrations), from APPLE_STORE_API_KEYS:
//   { "<tenantId>": { "issuerId": "…", "keyId": "…", "privateKey": "-----BEGIN PRIVATE KEY-----…" } }
// or "privateKeyPath": "/path/AuthKey_X.p8" instead of "privateKey". Deployment configuration, like
// DATABASE_URL, and never a table: a key in the database would travel into every backup, replica and
// staff query. Nothing here logs or returns a key's text in an error — only tenant ids and field names.

export interface AppStoreApiKey {
  readonly issuerId: string;
  readonly keyId: string;
  /** The .p8 file's PKCS#8 PEM. Never logged, never stored, never put in a message. */
  readonly privateKey: string;
}

/** What is wrong with a configured value: where (a field name, never its content) and why. */
export interface KeyProblem {
  /** null when the whole value is unusable (not JSON, not an object). */
  readonly tenantId: string | null;
  readonly field: string;
  readonly problem: string;
}

export interface AppStoreApiKeys {
  readonly keys: ReadonlyMap<string, AppStoreApiKey>;
  readonly problems: readonly KeyProblem[];
}

export type ApiKeyLookup =
  | { readonly kind: "configured"; readonly key: AppStoreApiKey }
  | { readonly kind: "not-configured" }
  | { readonly kind: "invalid"; readonly field: string };

export const API_KEYS_ENV = "APPLE_STORE_API_KEYS";

const keyEntry = z.strictObject({
  issuerId: z.string().trim().min(1, "is empty"),
  keyId: z.string().trim().min(1, "is empty"),
  privateKey: z.string().optional(),
  privateKeyPath: z.string().trim().min(1, "is empty").optional(),
});

/**
 * The configured keys, tenant by tenant: one tenant's broken entry leaves the others usable. Pure but
 * for `readFile` (for privateKeyPath). An absent or empty value configures no tenant.
 */
export function parseAppStoreApiKeys(raw: string | undefined, readFile: (path: string) => string): AppStoreApiKeys {
  if (!raw?.trim()) return { keys: new Map(), problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not the parser's message: Node quotes the text around the error, which may be the key.
    return { keys: new Map(), problems: [{ tenantId: null, field: API_KEYS_ENV, problem: "is not valid JSON" }] };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { keys: new Map(), problems: [{ tenantId: null, field: API_KEYS_ENV, problem: "is not a JSON object of tenant ids" }] };
  }
  const keys = new Map<string, AppStoreApiKey>();
  const problems: KeyProblem[] = [];
  for (const [tenantId, entry] of Object.entries(value)) {
    const parsed = keyOf(entry, readFile);
    if (parsed.ok) keys.set(tenantId, parsed.key);
    else problems.push({ tenantId, ...parsed.problem });
  }
  return { keys, problems };
}

type EntryResult = { readonly ok: true; readonly key: AppStoreApiKey } | { readonly ok: false; readonly problem: Omit<KeyProblem, "tenantId"> };

function keyOf(entry: unknown, readFile: (path: string) => string): EntryResult {
  const parsed = keyEntry.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // zod's messages name types and rules, never the value received.
    const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join(".") || "(entry)";
    return { ok: false, problem: { field, problem: issue.message } };
  }
  const { issuerId, keyId, privateKey, privateKeyPath } = parsed.data;
  if ((privateKey === undefined) === (privateKeyPath === undefined)) {
    return { ok: false, problem: { field: "privateKey", problem: "give exactly one of privateKey and privateKeyPath" } };
  }
  let pem: string;
  if (privateKeyPath !== undefined) {
    try {
      pem = readFile(privateKeyPath);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { ok: false, problem: { field: "privateKeyPath", problem: `cannot be read${typeof code === "string" ? ` (${code})` : ""}` } };
    }
  } else {
    // A PEM pasted into an environment variable often arrives with its newlines as literal "\n".
    pem = privateKey!.replace(/\\n/g, "\n");
  }
  if (!isP256Pkcs8(pem)) {
    return { ok: false, problem: { field: privateKeyPath !== undefined ? "privateKeyPath" : "privateKey", problem: "is not an EC P-256 private key in PKCS#8 PEM (the .p8 file's text)" } };
  }
  return { ok: true, key: { issuerId, keyId, privateKey: pem } };
}

/** Apple's .p8 keys are EC P-256 in PKCS#8; checked now so a wrong key is named at startup, not at the first answer. */
function isP256Pkcs8(pem: string): boolean {
  if (!pem.includes("-----BEGIN PRIVATE KEY-----")) return false;
  try {
    const key = createPrivateKey({ key: pem, format: "pem" });
    return key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1";
  } catch {
    return false;
  }
}

/** A tenant's key, or why there is none. A whole value that cannot be read leaves every tenant's invalid. */
export function lookupAppStoreApiKey(keys: AppStoreApiKeys, tenantId: string): ApiKeyLookup {
  const key = keys.keys.get(tenantId);
  if (key) return { kind: "configured", key };
  const problem = keys.problems.find((p) => p.tenantId === tenantId || p.tenantId === null);
  return problem ? { kind: "invalid", field: problem.field } : { kind: "not-configured" };
}

const log = logger.child({ component: "app-store-server-api" });
let loaded: { readonly raw: string | undefined; readonly keys: AppStoreApiKeys } | null = null;

/**
 * The deployment's keys, parsed once per value of the variable (tests set it after import) and
 * checked when first used: each problem is logged once, as an error naming the tenant and field, so
 * ops see it in the worker's log and not only on each failed review.
 */
export function appStoreApiKeys(): AppStoreApiKeys {
  const raw = process.env[API_KEYS_ENV];
  if (!loaded || loaded.raw !== raw) {
    loaded = { raw, keys: parseAppStoreApiKeys(raw, (path) => readFileSync(path, "utf8")) };
    for (const p of loaded.keys.problems) {
      log.error({ tenantId: p.tenantId, field: p.field, problem: p.problem }, `${API_KEYS_ENV}: ${p.tenantId === null ? "the value" : `tenant ${p.tenantId}`}: ${p.field} ${p.problem}`);
    }
  }
  return loaded.keys;
}
