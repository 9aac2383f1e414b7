import "server-only";
import { getPool } from "@/lib/db/pool";

export interface TenantChoice {
  readonly id: string;
  readonly name: string;
}

/** The products in a scope, for filter menus (tenants' primary key). */
export async function tenantChoices(scope: readonly string[]): Promise<TenantChoice[]> {
  if (scope.length === 0) return [];
  const { rows } = await getPool().query<TenantChoice>(`SELECT id, name FROM tenants WHERE id = ANY($1::text[]) ORDER BY id`, [scope]);
  return rows;
}
