import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { execute, one, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { logger } from "@/lib/log";

// Sign-in throttling, counted from audit_events (the record we keep anyway), so it holds across
// every web instance without any in-memory state.
//
// Locking an account after a few failures from anyone hands every stranger a way to lock its owner
// out. So the quick lock is per account *and* address: five wrong passwords from one address lock
// that pair, and the owner signing in from elsewhere is not affected; a success from an address
// clears its pair. Guessing across many addresses is bounded by a slower, higher per-account limit
// (50 an hour, about the "no more than 100 consecutive failures" of NIST SP 800-63B), and one
// address spraying many accounts by a per-address limit.
//
// The address is the socket's peer, or what a trusted proxy vouches for (lib/auth/client-address.ts),
// so all three limits apply out of the box. When it is unknown (the socket was gone before the
// request was read) the pair and address limits cannot be applied — pooling every unknown caller
// into one "address" would give a stranger the lockout weapon back — and the per-account limit holds.
export const THROTTLE = {
  /** Failures for one account from one address since that pair's last success. */
  pair: { failures: 5, windowSeconds: 15 * 60 },
  /** Failures from one address, whatever the account. */
  address: { failures: 20, windowSeconds: 15 * 60 },
  /** Failures for one account from every address together. */
  account: { failures: 50, windowSeconds: 60 * 60 },
} as const;

export type LockScope = keyof typeof THROTTLE;
const SCOPES: readonly LockScope[] = ["pair", "address", "account"];

export type ThrottleVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly scope: LockScope; readonly retryAfterSeconds: number };

interface ScopeState {
  /** Failures that count, within the window. */
  readonly failures: number;
  /** Seconds until the count falls below the limit; null while it is below. */
  readonly retryAfterSeconds: number | null;
}
type ThrottleState = Readonly<Record<LockScope, ScopeState>>;

const stateRow = z.object({
  pairFailures: z.number(),
  pairRetry: z.number().nullable(),
  addressFailures: z.number(),
  addressRetry: z.number().nullable(),
  accountFailures: z.number(),
  accountRetry: z.number().nullable(),
});

// Each scope is locked until its limit-th most recent failure leaves the window. `ip = $2` matches
// nothing when the address is unknown, which is what switches the pair and address limits off.
const STATE_SQL = `
  WITH pair AS (
    SELECT created_at FROM audit_events
    WHERE action = 'sign-in.failed' AND target = $1 AND ip = $2
      AND created_at > greatest(now() - make_interval(secs => $4),
                                (SELECT COALESCE(max(created_at), '-infinity') FROM audit_events
                                 WHERE action = 'sign-in.succeeded' AND target = $1 AND ip = $2))),
  address AS (
    SELECT created_at FROM audit_events
    WHERE action = 'sign-in.failed' AND ip = $2 AND created_at > now() - make_interval(secs => $6)),
  account AS (
    SELECT created_at FROM audit_events
    WHERE action = 'sign-in.failed' AND target = $1 AND created_at > now() - make_interval(secs => $8))
  SELECT
    (SELECT count(*)::int FROM pair) AS "pairFailures",
    (SELECT ceil(extract(epoch FROM created_at + make_interval(secs => $4) - now()))::int
       FROM pair ORDER BY created_at DESC OFFSET $3 - 1 LIMIT 1) AS "pairRetry",
    (SELECT count(*)::int FROM address) AS "addressFailures",
    (SELECT ceil(extract(epoch FROM created_at + make_interval(secs => $6) - now()))::int
       FROM address ORDER BY created_at DESC OFFSET $5 - 1 LIMIT 1) AS "addressRetry",
    (SELECT count(*)::int FROM account) AS "accountFailures",
    (SELECT ceil(extract(epoch FROM created_at + make_interval(secs => $8) - now()))::int
       FROM account ORDER BY created_at DESC OFFSET $7 - 1 LIMIT 1) AS "accountRetry"`;

async function throttleState(db: Queryable, email: string, address: string | null): Promise<ThrottleState> {
  const { pair, address: byAddress, account } = THROTTLE;
  const row = await one(db, stateRow, STATE_SQL, [
    email,
    address,
    pair.failures,
    pair.windowSeconds,
    byAddress.failures,
    byAddress.windowSeconds,
    account.failures,
    account.windowSeconds,
  ]);
  return {
    pair: { failures: row.pairFailures, retryAfterSeconds: row.pairRetry },
    address: { failures: row.addressFailures, retryAfterSeconds: row.addressRetry },
    account: { failures: row.accountFailures, retryAfterSeconds: row.accountRetry },
  };
}

/** Whether `email` may try a password from `address` now; if not, which limit says no and for how long. */
export async function signInAllowed(email: string, address: string | null): Promise<ThrottleVerdict> {
  const state = await throttleState(getPool(), email, address);
  let refusal: { scope: LockScope; retryAfterSeconds: number } | null = null;
  for (const scope of SCOPES) {
    const seconds = state[scope].retryAfterSeconds;
    if (seconds !== null && (!refusal || seconds > refusal.retryAfterSeconds)) refusal = { scope, retryAfterSeconds: Math.max(1, seconds) };
  }
  return refusal ? { allowed: false, ...refusal } : { allowed: true };
}

export type FailureReason = "unknown-email" | "wrong-password" | "disabled";

/**
 * Records a failed sign-in, and the lockouts it starts: the failure that brings a scope to its
 * limit writes one `sign-in.locked` row (a security event, also logged). Attempts refused while
 * locked write nothing, so the rows grow only with attempts that cost a password check.
 */
export async function recordSignInFailure(email: string, address: string | null, why: FailureReason): Promise<readonly LockScope[]> {
  return transaction(
    async ({ client, prisma }) => {
      // Serialise the failures of one account (and of one address) so that exactly one of them is
      // the one that reaches a limit, and its lockout row is written once.
      await execute(client, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`sign-in:account:${email}`]);
      if (address !== null) await execute(client, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`sign-in:address:${address}`]);
      await audit({ actor: "anonymous", action: "sign-in.failed", target: email, ip: address, detail: { why } }, prisma);
      const state = await throttleState(client, email, address);
      const locked = SCOPES.filter((scope) => state[scope].failures === THROTTLE[scope].failures);
      for (const scope of locked) {
        const detail = { scope, failures: state[scope].failures, windowSeconds: THROTTLE[scope].windowSeconds, retryAfterSeconds: state[scope].retryAfterSeconds };
        await audit({ actor: "anonymous", action: "sign-in.locked", target: email, ip: address, detail }, prisma);
        logger.warn({ security: "sign-in.locked", email, address, ...detail }, "sign-in locked");
      }
      return locked;
    },
    { prisma: true },
  );
}
