import "server-only";
import { audit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { actorOf, type Staff } from "./staff";

export function inScope(staff: Staff, tenantId: string): boolean {
  return staff.tenantIds.includes(tenantId);
}

/**
 * A tenant outside the caller's scope answers exactly like a missing one (404), so ids cannot be
 * probed across tenants; the attempt is audited.
 */
export async function requireTenantScope(staff: Staff, tenantId: string, target: string): Promise<void> {
  if (inScope(staff, tenantId)) return;
  await audit({ actor: actorOf(staff), action: "access.denied", target, tenantId, detail: { reason: "tenant out of scope" } });
  throw new AppError("not-found");
}
