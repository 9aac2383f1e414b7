import "server-only";
import { readFileSync } from "node:fs";
import { importPKCS8, SignJWT } from "jose";
import { z } from "zod";

// The worker's bearer token for the Google Play Developer API: a service account's key (the JSON
// file Google Cloud hands out) exchanged for an access token by the JWT bearer grant (RFC 7523), the
// way Google's own auth library does it, with jose (already a dependency) instead of another
// library. One service account for the deployment: each tenant grants it access to its app in Play
// Console (README, "Connecting Google Play"). The token is cached until shortly before it expires.

const SCOPE = "https://www.googleapis.com/auth/androidpublisher";

const serviceAccountKey = z.object({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.url().default("https://oauth2.googleapis.com/token"),
});
export type ServiceAccountKey = z.output<typeof serviceAccountKey>;

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

export type AccessTokenProvider = () => Promise<string>;

/** A provider for `key`: a fresh token when the cached one has less than a minute left. */
export function serviceAccountTokens(key: ServiceAccountKey, fetch: typeof globalThis.fetch, clock: () => Date = () => new Date()): AccessTokenProvider {
  let cached: { token: string; until: number } | null = null;
  return async () => {
    const now = clock().getTime();
    if (cached && cached.until - 60_000 > now) return cached.token;
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", ...(key.private_key_id ? { kid: key.private_key_id } : {}) })
      .setIssuer(key.client_email)
      .setAudience(key.token_uri)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + 3600)
      .sign(await importPKCS8(key.private_key, "RS256"));
    const response = await fetch(key.token_uri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      signal: AbortSignal.timeout(30_000),
    });
    const answer = tokenAnswer.safeParse(await response.json().catch(() => null));
    if (!response.ok || !answer.success) throw new Error(`google token endpoint: HTTP ${response.status}`);
    cached = { token: answer.data.access_token, until: now + answer.data.expires_in * 1000 };
    return cached.token;
  };
}

/**
 * The deployment's service account, from GOOGLE_PLAY_SERVICE_ACCOUNT_KEY (the key's JSON) or the
 * file GOOGLE_APPLICATION_CREDENTIALS names; null when neither is set (nothing is polled).
 */
export function configuredServiceAccount(): ServiceAccountKey | null {
  const inline = process.env.GOOGLE_PLAY_SERVICE_ACCOUNT_KEY;
  const file = process.env.GOOGLE_APPLICATION_CREDENTIALS;
  const text = inline || (file ? readFileSync(file, "utf8") : null);
  return text ? serviceAccountKey.parse(JSON.parse(text)) : null;
}
