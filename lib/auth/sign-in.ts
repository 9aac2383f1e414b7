import "server-only";
import { audit } from "@/lib/audit/record";
import type { Problem } from "@/lib/problems";
import { dummyHash, verifyPassword } from "./passwords";
import { findStaffForSignIn, type Staff } from "./staff";
import { signInAllowed } from "./throttle";

export type SignInResult =
  | { readonly ok: true; readonly staff: Staff }
  | { readonly ok: false; readonly reason: "invalid" | "locked"; readonly problem: Problem };

/** Checks a password sign-in: throttle first, then the password; every outcome is audited. */
export async function authenticate(emailInput: string, password: string, ip: string | null): Promise<SignInResult> {
  const email = emailInput.trim().toLowerCase();
  const verdict = await signInAllowed(email, ip);
  if (!verdict.allowed) {
    const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
    await audit({ actor: `anonymous`, action: "sign-in.locked", target: email, ip, detail: { retryAfterSeconds: verdict.retryAfterSeconds } });
    return { ok: false, reason: "locked", problem: { kind: "sign-in-locked", minutes } };
  }

  const user = await findStaffForSignIn(email);
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !passwordOk || user.disabled) {
    const why = !user ? "unknown-email" : !passwordOk ? "wrong-password" : "disabled";
    await audit({ actor: "anonymous", action: "sign-in.failed", target: email, ip, detail: { why } });
    return { ok: false, reason: "invalid", problem: { kind: "sign-in-invalid" } };
  }
  const { passwordHash: _hash, disabled: _disabled, ...staff } = user;
  await audit({ actor: `staff:${staff.email}`, action: "sign-in.succeeded", target: email, ip });
  return { ok: true, staff };
}
