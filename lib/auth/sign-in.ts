import "server-only";
import { audit } from "@/lib/audit/record";
import { logger } from "@/lib/log";
import type { Problem } from "@/lib/problems";
import { dummyHash, verifyPassword } from "./passwords";
import { findStaffForSignIn, type Staff } from "./staff";
import { recordSignInFailure, signInAllowed, type FailureReason } from "./throttle";

export type SignInResult =
  | { readonly ok: true; readonly staff: Staff }
  | { readonly ok: false; readonly reason: "invalid" | "locked"; readonly problem: Problem };

/**
 * Checks a password sign-in from `address` (null when it cannot be known: lib/auth/client-address.ts):
 * throttle first, then the password. Successes, failures and the lockouts they start are audited.
 */
export async function authenticate(emailInput: string, password: string, address: string | null): Promise<SignInResult> {
  const email = emailInput.trim().toLowerCase();
  const verdict = await signInAllowed(email, address);
  if (!verdict.allowed) {
    // Not audited: the lockout was when it began, and a row per refused attempt would let anyone
    // grow the audit log without even paying for a password check.
    logger.info({ security: "sign-in.refused", email, address, scope: verdict.scope }, "sign-in refused while locked");
    return { ok: false, reason: "locked", problem: { kind: "sign-in-locked", minutes: Math.ceil(verdict.retryAfterSeconds / 60) } };
  }

  const user = await findStaffForSignIn(email);
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !passwordOk || user.disabled) {
    const why: FailureReason = !user ? "unknown-email" : !passwordOk ? "wrong-password" : "disabled";
    await recordSignInFailure(email, address, why);
    return { ok: false, reason: "invalid", problem: { kind: "sign-in-invalid" } };
  }
  const { passwordHash: _hash, disabled: _disabled, ...staff } = user;
  await audit({ actor: `staff:${staff.email}`, action: "sign-in.succeeded", target: email, ip: address });
  return { ok: true, staff };
}
