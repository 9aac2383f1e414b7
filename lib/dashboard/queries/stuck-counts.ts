import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { DWELL_STATES, type DwellState } from "@/lib/settings/durations";

export interface StuckCount {
  readonly state: DwellState;
  /** The tenant's max dwell for the state; null when none is set (then nothing counts as stuck). */
  readonly thresholdSeconds: number | null;
  readonly count: number;
}

export interface TenantStuckCounts {
  readonly tenantId: string;
  readonly byState: readonly StuckCount[];
}

const countRow = z.object({ tenantId: z.string(), state: z.enum(DWELL_STATES), thresholdSeconds: z.number().nullable(), count: z.number() });

/**
 * Orders stuck per state: in the state for longer than the tenant's max dwell for it
 * (tenant_settings.max_dwell_seconds). One count per (tenant, state), each a range of the
 * (tenant_id, state, state_at) index read index-only — cost grows with the stuck orders, not the
 * table.
 */
export async function stuckCounts(scope: readonly string[]): Promise<TenantStuckCounts[]> {
  if (scope.length === 0) return [];
  const counts = await rows(
    getPool(),
    countRow,
    `SELECT ts.tenant_id AS "tenantId", d.state, d.seconds AS "thresholdSeconds",
            CASE WHEN d.seconds IS NULL THEN 0 ELSE
              (SELECT count(*) FROM orders o
                WHERE o.tenant_id = ts.tenant_id AND o.state = d.state AND o.state_at < now() - d.seconds * interval '1 second')
            END::int AS count
     FROM tenant_settings ts
     CROSS JOIN LATERAL (SELECT s AS state, (ts.max_dwell_seconds->>s)::int AS seconds FROM unnest($2::text[]) WITH ORDINALITY AS u(s, n) ORDER BY n) d
     WHERE ts.tenant_id = ANY($1::text[])
     ORDER BY ts.tenant_id`,
    [scope, DWELL_STATES],
  );
  const byTenant = new Map<string, StuckCount[]>();
  for (const { tenantId, ...count } of counts) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), count]);
  return [...byTenant].map(([tenantId, byState]) => ({ tenantId, byState }));
}
