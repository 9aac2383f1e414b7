import "server-only";
import { audit } from "@/lib/audit/record";
import { clientAddress } from "@/lib/auth/client-address";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { OrderSnapshot } from "@/lib/orders/types";
import { authenticateApiKey, authenticateApiKeyForOrder, presentedKeyPrefix, type ApiCaller } from "./keys";

// Failed API-key authentications, per caller address (lib/auth/client-address.ts; callers whose
// address is unknown share one count). Past the limit in a minute, further failures from that
// address answer 429 with Retry-After instead of 401. A valid key is always served: an address can
// be shared (a NAT, or everyone when no proxy is trusted), and one misbehaving client there must
// not lock out a correct integrator. Keys carry 256 random bits, so this is not what stops guessing;
// it tells a broken or hostile client to back off and keeps the trail of it bounded.
//
// Counted in this process's memory, not in the database: a row per failure would turn every bad
// request into a write — the flood itself. The price is that each web instance counts alone (the
// limit is per instance), and a restart forgets; both are acceptable for a brake that is not the
// lock. Logged and audited once per address and minute: the moment the limit is reached writes
// one `apikey.auth-failed` row (the audit log is a chain every row must join, so a row per failure
// would also serialise the flood on its head); the first failure of each minute is logged.

export const API_KEY_FAILURES = {
  perWindow: 20,
  windowSeconds: 60,
  /** Addresses tracked at once; beyond it the oldest window is forgotten (memory stays bounded). */
  maxTracked: 10_000,
} as const;

interface FailureWindow {
  readonly startedAt: number;
  failures: number;
  readonly prefixes: Set<string>;
}

const windows = new Map<string, FailureWindow>();

/** Raised instead of 401 once an address is over the limit; the route answers 429 with Retry-After. */
export class ApiKeyThrottled extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super("rate-limited");
  }
}

function windowOf(key: string, now: number): FailureWindow {
  const current = windows.get(key);
  if (current && now - current.startedAt < API_KEY_FAILURES.windowSeconds * 1000) return current;
  windows.delete(key);
  if (windows.size >= API_KEY_FAILURES.maxTracked) {
    for (const [other, w] of windows) if (now - w.startedAt >= API_KEY_FAILURES.windowSeconds * 1000) windows.delete(other);
    if (windows.size >= API_KEY_FAILURES.maxTracked) windows.delete(windows.keys().next().value!);
  }
  const fresh: FailureWindow = { startedAt: now, failures: 0, prefixes: new Set() };
  windows.set(key, fresh);
  return fresh;
}

/** Counts one failure; returns the seconds to wait when the address is now over the limit, else null. */
export async function noteApiKeyFailure(address: string | null, prefix: string | null, now = Date.now()): Promise<number | null> {
  const window = windowOf(address ?? "unknown", now);
  window.failures += 1;
  if (prefix && window.prefixes.size < 5) window.prefixes.add(prefix);
  const detail = { address, failures: window.failures, windowSeconds: API_KEY_FAILURES.windowSeconds, prefixes: [...window.prefixes] };
  if (window.failures === 1) logger.info({ security: "apikey.auth-failed", ...detail }, "API key refused");
  if (window.failures === API_KEY_FAILURES.perWindow) {
    logger.warn({ security: "apikey.throttled", ...detail }, "API key failures throttled");
    await audit({ actor: "anonymous", action: "apikey.auth-failed", target: address ? `address:${address}` : "address:unknown", ip: address, detail });
  }
  if (window.failures <= API_KEY_FAILURES.perWindow) return null;
  return Math.max(1, Math.ceil((window.startedAt + API_KEY_FAILURES.windowSeconds * 1000 - now) / 1000));
}

/**
 * The caller behind a request's `Authorization: Bearer <key>`. No header → 401 (nothing was tried);
 * a key that does not authenticate → 401, or 429 once its address is over the limit.
 */
export async function authenticateApiRequest(headers: Headers): Promise<ApiCaller> {
  const authorization = headers.get("authorization");
  if (authorization === null) throw new AppError("unauthenticated", { kind: "api-key-required" });
  const caller = await authenticateApiKey(authorization);
  if (caller) return caller;
  return refuse(headers, authorization);
}

/** authenticateApiRequest(), and the caller's tenant's order `orderNo` (null when none) in the same round trip. */
export async function authenticateApiRequestForOrder(headers: Headers, orderNo: string): Promise<{ caller: ApiCaller; order: OrderSnapshot | null }> {
  const authorization = headers.get("authorization");
  if (authorization === null) throw new AppError("unauthenticated", { kind: "api-key-required" });
  const found = await authenticateApiKeyForOrder(authorization, orderNo);
  if (found) return found;
  return refuse(headers, authorization);
}

async function refuse(headers: Headers, authorization: string): Promise<never> {
  const retryAfter = await noteApiKeyFailure(clientAddress(headers), presentedKeyPrefix(authorization));
  if (retryAfter !== null) throw new ApiKeyThrottled(retryAfter);
  throw new AppError("unauthenticated", { kind: "api-key-required" });
}

/** An error response with the Retry-After a throttled caller needs. */
export function withRetryAfter(response: Response, error: unknown): Response {
  if (error instanceof ApiKeyThrottled) response.headers.set("retry-after", String(error.retryAfterSeconds));
  return response;
}
