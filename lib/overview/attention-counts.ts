import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { rows } from "@/lib/db/sql";
import { ORDER_STATES } from "@/lib/orders/machine";

// What the overview asks someone to look at, per product: orders stuck in their state, and refund
// requests waiting for a manager. Each is a count that stops at a cap (the overview is opened many
// times a day, and during an incident a queue holds tens of thousands), read from the same indexes
// as the lists they link to.

/** Counts stop here: "1,000+" says what matters at a bounded cost. */
export const ATTENTION_COUNT_LIMIT = 1_000;

export interface CappedCount {
  readonly count: number;
  /** More than `count` (the cap). */
  readonly more: boolean;
}

const stuckRow = z.object({ tenantId: z.string(), n: z.number() });

/**
 * Stuck orders per product: in a state longer than the product's max_dwell_seconds for it — the
 * orders list's `stuck` filter, by the same rule (a threshold is a number of at least one second,
 * whole seconds), so the count and the list it links to agree. One range of orders (tenant_id,
 * state, state_at) per (product, state) pair, each stopping at the cap.
 */
export async function stuckCounts(scope: readonly string[], cap = ATTENTION_COUNT_LIMIT): Promise<Readonly<Record<string, CappedCount>>> {
  if (scope.length === 0) return {};
  const found = await rows(
    getPool(),
    stuckRow,
    `WITH p AS MATERIALIZED (
       SELECT ts.tenant_id, s.state, floor((ts.max_dwell_seconds ->> s.state)::float8)::int AS dwell
       FROM tenant_settings ts CROSS JOIN unnest($2::text[]) AS s(state)
       WHERE ts.tenant_id = ANY($1)
         AND CASE WHEN jsonb_typeof(ts.max_dwell_seconds -> s.state) = 'number'
                  THEN (ts.max_dwell_seconds ->> s.state)::float8 >= 1 ELSE false END
     )
     SELECT p.tenant_id AS "tenantId", sum(c.n)::int AS n
     FROM p CROSS JOIN LATERAL (
       SELECT count(*)::int AS n FROM (
         SELECT 1 FROM orders o
         WHERE o.tenant_id = p.tenant_id AND o.state = p.state AND o.state_at < now() - p.dwell * interval '1 second'
         ORDER BY o.state_at LIMIT $3
       ) x
     ) c
     GROUP BY p.tenant_id`,
    [[...new Set(scope)], ORDER_STATES, cap + 1],
  );
  return Object.fromEntries(found.map((r) => [r.tenantId, { count: Math.min(r.n, cap), more: r.n > cap }]));
}

/** Refund requests waiting for a manager, per product (refund_approvals (tenant_id, status, created_at)). */
export async function pendingApprovalCounts(scope: readonly string[]): Promise<Readonly<Record<string, number>>> {
  if (scope.length === 0) return {};
  const groups = await getPrisma().refundApproval.groupBy({
    by: ["tenantId"],
    where: { tenantId: { in: [...new Set(scope)] }, status: "pending" },
    _count: { _all: true },
  });
  return Object.fromEntries(groups.map((g) => [g.tenantId, g._count._all]));
}
