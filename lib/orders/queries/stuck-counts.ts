import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { STUCK_STATES, type StuckState } from "@/lib/orders/stuck";

// How many orders are stuck (lib/orders/stuck.ts), per product and state: the one count behind the
// overview's card and column, the queues' tabs and the dashboard's chart. Each figure links to the
// orders list's stuck filter, which lists the same orders by the same rule.

/** Counts stop here: "1,000+" says what matters at a bounded cost, however large an incident. */
export const STUCK_COUNT_LIMIT = 1_000;

/**
 * Every (product, state) pair of the products in $1 and the states in $2, with the product's limit
 * for it in whole seconds, or a null dwell where it has none. Settings are edited by people: anything
 * but a number of at least one second is no limit (the nested CASE keeps the cast away from values
 * that are not numbers; PostgreSQL does not promise to evaluate an AND left to right). The same
 * rule as dwellThresholds() in TypeScript.
 */
export const STUCK_PAIRS = `
  SELECT ts.tenant_id, s.state, s.n,
         CASE WHEN jsonb_typeof(ts.max_dwell_seconds -> s.state) = 'number' THEN
           CASE WHEN (ts.max_dwell_seconds ->> s.state)::float8 >= 1
                THEN least(floor((ts.max_dwell_seconds ->> s.state)::float8), 2147483647)::int END
         END AS dwell
  FROM tenant_settings ts CROSS JOIN unnest($2::text[]) WITH ORDINALITY AS s(state, n)
  WHERE ts.tenant_id = ANY($1)`;

export interface CappedCount {
  readonly count: number;
  /** More than `count` (the cap). */
  readonly more: boolean;
}

export interface StuckStateCount extends CappedCount {
  readonly state: StuckState;
  /** The product's limit for the state; null when it has none (then nothing in it is stuck). */
  readonly thresholdSeconds: number | null;
}

export interface ProductStuckCounts {
  readonly tenantId: string;
  /** One per stuck state, in STUCK_STATES order. */
  readonly byState: readonly StuckStateCount[];
  readonly total: CappedCount;
}

const countRow = z.object({ tenantId: z.string(), state: z.enum(STUCK_STATES), dwell: z.number().nullable(), n: z.number() });

/**
 * Stuck orders per product in scope (products without settings have no limits, so none), per state:
 * each a range of the (tenant_id, state, state_at) index that stops past the cap. The ORDER BY keeps
 * the planner on that index: under a bare LIMIT, with the pair a parameter, it may bet on a
 * sequential scan finding enough rows early.
 */
export async function stuckCounts(scope: readonly string[], cap = STUCK_COUNT_LIMIT): Promise<ProductStuckCounts[]> {
  if (scope.length === 0) return [];
  const found = await rows(
    getPool(),
    countRow,
    `WITH p AS MATERIALIZED (${STUCK_PAIRS})
     SELECT p.tenant_id AS "tenantId", p.state, p.dwell,
            CASE WHEN p.dwell IS NULL THEN 0 ELSE (
              SELECT count(*) FROM (
                SELECT 1 FROM orders o
                WHERE o.tenant_id = p.tenant_id AND o.state = p.state AND o.state_at < now() - p.dwell * interval '1 second'
                ORDER BY o.state_at LIMIT $3
              ) x
            ) END::int AS n
     FROM p ORDER BY p.tenant_id, p.n`,
    [[...new Set(scope)], STUCK_STATES, cap + 1],
  );
  const byTenant = new Map<string, StuckStateCount[]>();
  for (const { tenantId, state, dwell, n } of found) {
    byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), { state, thresholdSeconds: dwell, ...capped(n, cap) }]);
  }
  return [...byTenant].map(([tenantId, byState]) => ({ tenantId, byState, total: sumCounts(byState, cap) }));
}

/** Counts added up (across states or products), themselves stopping at the cap. */
export function sumCounts(counts: readonly CappedCount[], cap = STUCK_COUNT_LIMIT): CappedCount {
  const n = counts.reduce((sum, c) => sum + c.count, 0);
  return { count: Math.min(n, cap), more: n > cap || counts.some((c) => c.more) };
}

/** Per state, across products. */
export function stuckByState(products: readonly ProductStuckCounts[], cap = STUCK_COUNT_LIMIT): Readonly<Record<StuckState, CappedCount>> {
  const of = (state: StuckState) => products.flatMap((p) => p.byState.filter((s) => s.state === state));
  return Object.fromEntries(STUCK_STATES.map((state) => [state, sumCounts(of(state), cap)])) as Record<StuckState, CappedCount>;
}

function capped(n: number, cap: number): CappedCount {
  return { count: Math.min(n, cap), more: n > cap };
}
