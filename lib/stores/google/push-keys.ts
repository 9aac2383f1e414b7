import "server-only";
import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";

// Whose tokens a Pub/Sub push must carry: Google's, in production. GOOGLE_PUSH_JWKS_URL and
// GOOGLE_PUSH_ISSUERS (comma-separated) point elsewhere — the tests' local issuer, or a
// deployment's own proxy — and are deployment configuration, read like DATABASE_URL.

const GOOGLE_JWKS_URL = "https://www.googleapis.com/oauth2/v3/certs";
/** Google writes either form into iss. */
const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

const keySets = new Map<string, JWTVerifyGetKey>();

export function pushTokenIssuer(): { readonly keys: JWTVerifyGetKey; readonly issuers: readonly string[] } {
  const url = process.env.GOOGLE_PUSH_JWKS_URL || GOOGLE_JWKS_URL;
  let keys = keySets.get(url);
  // One remote set per URL: jose caches the keys and refetches when a token names a key it lacks.
  if (!keys) keySets.set(url, (keys = createRemoteJWKSet(new URL(url))));
  const issuers = process.env.GOOGLE_PUSH_ISSUERS?.split(",").map((i) => i.trim()).filter(Boolean);
  return { keys, issuers: issuers?.length ? issuers : GOOGLE_ISSUERS };
}
