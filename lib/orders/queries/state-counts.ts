import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { ORDER_STATES, type OrderState } from "@/lib/orders/machine";

export interface TenantStateCounts {
  readonly tenantId: string;
  readonly tenantName: string;
  readonly total: number;
  readonly byState: Readonly<Record<OrderState, number>>;
}

const countRow = z.object({ tenantId: z.string(), tenantName: z.string(), state: z.enum(ORDER_STATES), n: z.number() });

/**
 * Orders per state per tenant. One index-only count per (tenant, state) — each a range of the
 * (tenant_id, state, …) index — rather than one GROUP BY over the whole table (which is all
 * Prisma's groupBy could ask for: hence raw SQL).
 */
export async function stateCounts(tenantIds?: readonly string[]): Promise<TenantStateCounts[]> {
  const counts = await rows(
    getPool(),
    countRow,
    `SELECT t.id AS "tenantId", t.name AS "tenantName", s.state,
            (SELECT count(*) FROM orders o WHERE o.tenant_id = t.id AND o.state = s.state)::int AS n
     FROM tenants t CROSS JOIN unnest($1::text[]) AS s(state)
     WHERE $2::text[] IS NULL OR t.id = ANY($2)
     ORDER BY t.id`,
    [ORDER_STATES, tenantIds ?? null],
  );
  const byTenant = new Map<string, TenantStateCounts & { byState: Record<OrderState, number> }>();
  for (const row of counts) {
    const entry =
      byTenant.get(row.tenantId) ??
      {
        tenantId: row.tenantId,
        tenantName: row.tenantName,
        total: 0,
        byState: Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>,
      };
    entry.byState[row.state] = row.n;
    byTenant.set(row.tenantId, { ...entry, total: entry.total + row.n });
  }
  return [...byTenant.values()];
}
