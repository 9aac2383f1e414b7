// Verifies the OIDC token a Pub/Sub push subscription with authentication attaches to every push
// (Authorization: Bearer <JWT>): signed by a key of the issuer's JWKS (Google's in production),
// issued by the issuer, unexpired, for the audience the tenant configured on its subscription, and
// for the service account it configured, with a verified email. Anyone can POST to the URL; only
// Google can mint such a token. No I/O of its own: the key set is handed in (jose fetches and caches
// a remote one; tests hand in a local one).
import { errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { StoreTokenFailure } from "@/lib/problems";

export interface PushIdentity {
  readonly audience: string;
  readonly serviceAccount: string;
}

export type TokenCheck = { readonly ok: true } | { readonly ok: false; readonly reason: StoreTokenFailure };

/** Pub/Sub signs with RS256; Google's tokens are never anything else. */
const ALGORITHMS = ["RS256"];

/** Who signed it and when: a token no issuer of ours signed, or one that ran out, is unauthenticated (401). */
export async function verifyPushToken(
  authorization: string | null,
  keys: JWTVerifyGetKey,
  issuers: readonly string[],
  now: Date,
): Promise<{ readonly ok: true; readonly claims: Record<string, unknown> } | { readonly ok: false; readonly reason: StoreTokenFailure }> {
  if (!authorization) return { ok: false, reason: "missing" };
  const match = authorization.match(/^Bearer ([A-Za-z0-9_.-]+)$/);
  if (!match) return { ok: false, reason: "malformed" };
  try {
    const { payload } = await jwtVerify(match[1]!, keys, { issuer: [...issuers], algorithms: ALGORITHMS, currentDate: now, clockTolerance: 30 });
    return { ok: true, claims: payload };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: "expired" };
    if (error instanceof errors.JWTClaimValidationFailed) return { ok: false, reason: error.claim === "iss" ? "issuer" : "malformed" };
    if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JOSEAlgNotAllowed) {
      return { ok: false, reason: "signature" };
    }
    if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) return { ok: false, reason: "malformed" };
    // The key set could not be fetched (Google unreachable): not the caller's fault; Pub/Sub retries a 5xx.
    throw error;
  }
}

/** For whom it was issued: a genuine token for another audience or service account is forbidden (403). */
export function checkPushIdentity(claims: Record<string, unknown>, expected: PushIdentity): TokenCheck {
  const audiences = [claims.aud].flat();
  if (!audiences.includes(expected.audience)) return { ok: false, reason: "audience" };
  if (claims.email !== expected.serviceAccount || claims.email_verified !== true) return { ok: false, reason: "email" };
  return { ok: true };
}
