import "server-only";
import { audit } from "@/lib/audit/record";
import { clientAddress } from "@/lib/auth/client-address";
import { getPool } from "@/lib/db/pool";
import { countInWindow } from "@/lib/db/rate-window";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { OrderSnapshot } from "@/lib/orders/types";
import type { Queryable } from "@/lib/db/sql";
import { authenticateApiKey, authenticateApiKeyForOrder, presentedKeyPrefix, type ApiCaller } from "./keys";

// Failed API-key authentications, per caller address (lib/auth/client-address.ts; callers whose
// address is unknown share one count). Past the limit in a minute, further failures from that
// address answer 429 with Retry-After instead of 401. A valid key is always served: an address can
// be shared (a NAT, or a balancer left out of TRUSTED_PROXIES), and one misbehaving client there
// must not lock out a correct integrator. Keys carry 256 random bits, so this is not what stops
// guessing; it tells a broken or hostile client to back off and keeps the trail of it bounded.
//
// Counted in PostgreSQL (lib/db/rate-window.ts), so the limit is one budget for every web process
// on every machine; counted in each process's memory, an address got the limit from each of them.
// The price is a write per failed authentication: one UPDATE of the address's row, which a flood
// from one address keeps hot (its failures queue on that row lock, and nothing else does). That
// is on top of the key lookup the failure already cost, and far cheaper than an audit row.
//
// Logged and audited once per address and window: the failure that takes the count to exactly the
// limit — one request, whichever process serves it — writes the one `apikey.auth-failed` row (the
// audit log is a chain every row must join, so a row per failure would serialise the flood on its
// head); the first failure of each window is logged. The audit row is written after the count, not
// in its transaction: wrapping every failure in a transaction for it would cost two more round
// trips each, so should that one write fail (the request then fails too), the window has no row.

export const API_KEY_FAILURES = {
  perWindow: 20,
  windowSeconds: 60,
} as const;

/** Raised instead of 401 once an address is over the limit; the route answers 429 with Retry-After. */
export class ApiKeyThrottled extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super("rate-limited");
  }
}

/**
 * Counts one failure; returns the seconds to wait when the address is now over the limit, else null.
 * `at` is the failure's time for tests; otherwise the database's clock.
 */
export async function noteApiKeyFailure(address: string | null, prefix: string | null, at: Date | null = null): Promise<number | null> {
  const window = await countInWindow(getPool(), { scope: "api-key-failures", key: address ?? "unknown", seconds: API_KEY_FAILURES.windowSeconds }, at);
  // `prefix` is the key prefix this failure presented: usually the same on every try of a broken integration.
  const detail = { address, failures: window.count, windowSeconds: API_KEY_FAILURES.windowSeconds, prefix };
  if (window.count === 1) logger.info({ security: "apikey.auth-failed", ...detail }, "API key refused");
  if (window.count === API_KEY_FAILURES.perWindow) {
    logger.warn({ security: "apikey.throttled", ...detail }, "API key failures throttled");
    await audit({ actor: "anonymous", action: "apikey.auth-failed", target: address ? `address:${address}` : "address:unknown", ip: address, detail });
  }
  return window.count <= API_KEY_FAILURES.perWindow ? null : window.secondsLeft;
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

/**
 * authenticateApiRequest(), and the caller's tenant's order `orderNo` (null when none) in the same
 * round trip; with `lockIn`, inside that transaction and holding the order's row lock. A key refused
 * there throws KeyRefusedInTransaction: counting the failure needs a connection of its own, and a
 * flood of bad keys must not hold one connection each while waiting for a second.
 */
export async function authenticateApiRequestForOrder(headers: Headers, orderNo: string, lockIn?: Queryable): Promise<{ caller: ApiCaller; order: OrderSnapshot | null }> {
  const authorization = headers.get("authorization");
  if (authorization === null) throw new AppError("unauthenticated", { kind: "api-key-required" });
  const found = await authenticateApiKeyForOrder(authorization, orderNo, lockIn);
  if (found) return found;
  if (lockIn) throw new KeyRefusedInTransaction(authorization);
  return refuse(headers, authorization);
}

/** A key refused inside a transaction; once it has rolled back, refuseKey() answers it (401 or 429). */
export class KeyRefusedInTransaction extends Error {
  constructor(readonly authorization: string) {
    super("API key refused");
  }
}

/** The answer to a KeyRefusedInTransaction, counted as every other failure is. */
export function refuseKey(headers: Headers, refused: KeyRefusedInTransaction): Promise<never> {
  return refuse(headers, refused.authorization);
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
