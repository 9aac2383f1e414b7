import "server-only";
import { getPrisma, type PrismaTx } from "@/lib/db/prisma";
import { ROLES, can } from "@/lib/auth/permissions";
import { staffOf, type Staff } from "@/lib/auth/staff";

/** The roles that work cases: who a case may be handed to. */
const WORKERS = ROLES.filter((r) => can(r, "cases:work"));

export interface Assignee {
  readonly email: string;
  readonly name: string;
  readonly tenantIds: readonly string[];
}

/** Active staff who work cases of at least one of these tenants (the assign form's choices). */
export async function listAssignees(tenants: readonly string[], prisma: PrismaTx = getPrisma()): Promise<Assignee[]> {
  if (tenants.length === 0) return [];
  const users = await prisma.staffUser.findMany({
    where: { disabledAt: null, role: { in: [...WORKERS] }, tenantIds: { hasSome: [...tenants] } },
    select: { email: true, name: true, tenantIds: true },
    orderBy: { email: "asc" },
  });
  return users;
}

/** The staff member a case of `tenantId` may be assigned to, by email; null when there is none. */
export async function findAssignee(tenantId: string, email: string): Promise<Staff | null> {
  const row = await getPrisma().staffUser.findFirst({
    where: { email: email.toLowerCase(), disabledAt: null, role: { in: [...WORKERS] }, tenantIds: { has: tenantId } },
  });
  return row ? staffOf(row) : null;
}
