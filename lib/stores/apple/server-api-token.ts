import "server-only";
import { importPKCS8, SignJWT } from "jose";
import type { AppStoreApiKey } from "./server-api-keys";

// The bearer token of an App Store Server API call, as Apple's "Generating JSON Web Tokens for API
// requests" specifies it: ES256, signed with the tenant's In-App Purchase key, header {alg, kid, typ},
// claims {iss, iat, exp, aud, bid}. Apple refuses a token that lives longer than 60 minutes; ours
// lives 20 and is reused until 5 minutes before it ends, so a token still in flight (a slow or
// retried request) is never refused as expired. Tokens are built at send time and never stored.

export const APP_STORE_AUDIENCE = "appstoreconnect-v1";
export const TOKEN_LIFETIME_S = 20 * 60;
/** Renew this long before expiry. */
export const RENEW_BEFORE_MS = 5 * 60_000;

export interface ServerApiToken {
  readonly token: string;
  /** Epoch ms (whole seconds, as in the token). */
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** A new token for `key` and the tenant's app `bundleId`, issued at `now`. Throws when the key cannot sign. */
export async function signServerApiToken(key: AppStoreApiKey, bundleId: string, now: Date): Promise<ServerApiToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + TOKEN_LIFETIME_S;
  const token = await new SignJWT({ bid: bundleId })
    .setProtectedHeader({ alg: "ES256", kid: key.keyId, typ: "JWT" })
    .setIssuer(key.issuerId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setAudience(APP_STORE_AUDIENCE)
    .sign(await importPKCS8(key.privateKey, "ES256"));
  return { token, issuedAt: iat * 1000, expiresAt: exp * 1000 };
}

/**
 * Whether a token made earlier may still be sent at `now`: not before it was issued (a clock that
 * went back, or a test's), and not within RENEW_BEFORE_MS of its end.
 */
export function isReusable(token: Pick<ServerApiToken, "issuedAt" | "expiresAt">, now: Date): boolean {
  return token.issuedAt <= now.getTime() && now.getTime() < token.expiresAt - RENEW_BEFORE_MS;
}

export interface ServerApiTokens {
  /** A token for the tenant's key and app: the cached one while reusable, else a new one. */
  token(tenantId: string, key: AppStoreApiKey, bundleId: string, now: Date): Promise<string>;
}

/**
 * A per-process cache of tokens by tenant, key and app (a new key or bundle id gets a new token at
 * once rather than after the old one ends). Concurrent misses may each sign; both tokens are valid.
 */
export function serverApiTokens(sign: typeof signServerApiToken = signServerApiToken): ServerApiTokens {
  const cache = new Map<string, ServerApiToken>();
  return {
    async token(tenantId, key, bundleId, now) {
      const id = JSON.stringify([tenantId, key.issuerId, key.keyId, bundleId]);
      const cached = cache.get(id);
      if (cached && isReusable(cached, now)) return cached.token;
      const fresh = await sign(key, bundleId, now);
      cache.set(id, fresh);
      return fresh.token;
    },
  };
}
