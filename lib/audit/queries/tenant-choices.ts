import "server-only";
import { getPrisma } from "@/lib/db/prisma";

export interface TenantChoice {
  readonly id: string;
  readonly name: string;
}

/** The products in a scope, for filter menus (tenants' primary key). */
export async function tenantChoices(scope: readonly string[]): Promise<TenantChoice[]> {
  if (scope.length === 0) return [];
  return getPrisma().tenant.findMany({ where: { id: { in: [...scope] } }, select: { id: true, name: true }, orderBy: { id: "asc" } });
}
