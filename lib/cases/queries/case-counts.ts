import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import type { CappedCount } from "../filters";

export interface CaseCounts {
  readonly open: CappedCount;
  readonly overdue: CappedCount;
}

const countsRow = z.object({ open: z.number(), overdue: z.number() });

/**
 * Active and overdue cases across the caller's tenants, for the overview: ranges of the active cases'
 * partial index per tenant, each stopping past the cap (the overview polls; a backlog must not cost
 * a full count every time).
 */
export async function caseCounts(scope: readonly string[], countLimit = 1_000): Promise<CaseCounts> {
  if (scope.length === 0) return { open: { total: 0, more: false }, overdue: { total: 0, more: false } };
  const count = (filter: string) => `(SELECT count(*) FROM unnest($1::text[]) AS s(tenant_id)
    CROSS JOIN LATERAL (SELECT 1 FROM order_exceptions x WHERE x.tenant_id = s.tenant_id AND x.status IN ('open', 'in-progress') ${filter}
      ORDER BY x.sla_due_at LIMIT $2) c)::int`;
  const n = await one(getPool(), countsRow, `SELECT ${count("")} AS open, ${count("AND x.sla_due_at < now()")} AS overdue`, [[...new Set(scope)], countLimit + 1]);
  const capped = (value: number): CappedCount => ({ total: Math.min(value, countLimit), more: value > countLimit });
  return { open: capped(n.open), overdue: capped(n.overdue) };
}
