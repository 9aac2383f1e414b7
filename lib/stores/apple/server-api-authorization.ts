import "server-only";
import { assertNever } from "@/lib/orders/machine";
import { API_KEYS_ENV, lookupAppStoreApiKey, type AppStoreApiKeys } from "./server-api-keys";
import type { ServerApiTokens } from "./server-api-token";

// What the relay needs to call the App Store Server API for a tenant: its Authorization header, or
// why it cannot have one. A missing or broken key is an outcome the relay records on the message and
// the review (so an agent reads why on the review page), not an exception.

export type AuthorizationProblem =
  | { readonly kind: "key-not-configured" }
  | { readonly kind: "key-invalid"; readonly field: string }
  /** No bundle id in Settings → App Store: Apple's token must name the app. */
  | { readonly kind: "app-not-connected" }
  /** The key passed the startup checks but jose could not sign with it. */
  | { readonly kind: "key-unusable" };

export type AppStoreAuthorization =
  | { readonly ok: true; readonly authorization: string }
  | { readonly ok: false; readonly problem: AuthorizationProblem };

export async function appStoreAuthorization(input: {
  readonly tenantId: string;
  /** tenant_settings.apple_bundle_id, as read when the message was claimed. */
  readonly bundleId: string | null;
  readonly now: Date;
  readonly keys: AppStoreApiKeys;
  readonly tokens: ServerApiTokens;
}): Promise<AppStoreAuthorization> {
  const found = lookupAppStoreApiKey(input.keys, input.tenantId);
  if (found.kind === "not-configured") return { ok: false, problem: { kind: "key-not-configured" } };
  if (found.kind === "invalid") return { ok: false, problem: { kind: "key-invalid", field: found.field } };
  if (!input.bundleId) return { ok: false, problem: { kind: "app-not-connected" } };
  try {
    return { ok: true, authorization: `Bearer ${await input.tokens.token(input.tenantId, found.key, input.bundleId, input.now)}` };
  } catch {
    // jose's error says nothing about the key's text, but nothing of it is needed either.
    return { ok: false, problem: { kind: "key-unusable" } };
  }
}

/**
 * The reason stored on the outbox message and the review (English, like every relay error, for the
 * logs). The review page reads it back with authorizationProblemOf, which parses these very
 * sentences, so a reworded one is still read.
 */
export function describeAuthorizationProblem(problem: AuthorizationProblem): string {
  switch (problem.kind) {
    case "key-not-configured":
      return `App Store Server API key not configured for this tenant (${API_KEYS_ENV})`;
    case "key-invalid":
      return `App Store Server API key for this tenant is invalid in ${API_KEYS_ENV} (${problem.field}); see the worker's log`;
    case "app-not-connected":
      return "App Store app not connected for this tenant: no bundle id in Settings → App Store";
    case "key-unusable":
      return `App Store Server API key for this tenant could not sign a token (${API_KEYS_ENV}, privateKey)`;
    default:
      return assertNever(problem);
  }
}

const FIXED_PROBLEMS = ["key-not-configured", "app-not-connected", "key-unusable"] as const;
// The key-invalid sentence around its field, cut at a character no field can hold.
const [INVALID_HEAD, INVALID_TAIL] = describeAuthorizationProblem({ kind: "key-invalid", field: "\0" }).split("\0") as [string, string];

/**
 * A stored reason (describeAuthorizationProblem's) back as data; null for any other error (Apple's
 * HTTP answers, the network's), which the page shows as recorded. Reading the sentences rather than
 * storing new codes keeps the reasons already on reviews readable in either language.
 */
export function authorizationProblemOf(error: string): AuthorizationProblem | null {
  const fixed = FIXED_PROBLEMS.find((kind) => error === describeAuthorizationProblem({ kind }));
  if (fixed) return { kind: fixed };
  const field = error.startsWith(INVALID_HEAD) && error.endsWith(INVALID_TAIL) ? error.slice(INVALID_HEAD.length, error.length - INVALID_TAIL.length) : "";
  return field ? { kind: "key-invalid", field } : null;
}
