import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import type { CappedCount, CaseFilter, CaseQueue } from "../filters";
import { can } from "@/lib/auth/permissions";
import { CASE_WORKERS, type Viewer } from "../offers";
import { caseView } from "../view";
import { CASE_COLUMNS, CASE_JOINS, caseFactsRow } from "./case-select";

// The case queue: the active cases (open, in progress) of the caller's tenants, most urgent first
// (by SLA due time), filtered to all, mine, unassigned or overdue, capped, with every filter's count
// beside it. Each filter is a range of one partial index per tenant (migration
// 20261203170000_cases_and_refunds): (tenant, due) for all and overdue, (tenant, owner, due) for
// mine and unassigned — so a page costs its rows whatever the table holds, and
// bench/explain.integration.test.ts proves the plans.

// The literal status list is what lets the planner use the partial indexes.
const ACTIVE = `x.status IN ('open', 'in-progress')`;
const FILTER_SQL: Readonly<Record<CaseFilter, string>> = {
  all: "",
  mine: "AND x.owner = $3",
  unassigned: "AND x.owner IS NULL",
  overdue: "AND x.sla_due_at < now()",
};

/** The SQL of one filter's page: a capped range per tenant, merged by due time. */
export function caseQueueSql(filter: CaseFilter): string {
  return `SELECT ${CASE_COLUMNS}
    FROM unnest($1::text[]) AS s(tenant_id)
    CROSS JOIN LATERAL (
      SELECT x.* FROM order_exceptions x
      WHERE x.tenant_id = s.tenant_id AND ${ACTIVE} ${FILTER_SQL[filter]}
      ORDER BY x.sla_due_at, x.id LIMIT $2
    ) e
    ${CASE_JOINS}
    ORDER BY e.sla_due_at, e.id LIMIT $2`;
}

function countSql(filter: CaseFilter): string {
  // ORDER BY keeps the planner on the index: under a bare LIMIT it may bet on a scan finding enough.
  return `(SELECT count(*) FROM unnest($1::text[]) AS s(tenant_id)
     CROSS JOIN LATERAL (SELECT 1 FROM order_exceptions x WHERE x.tenant_id = s.tenant_id AND ${ACTIVE} ${FILTER_SQL[filter]}
       ORDER BY x.sla_due_at LIMIT $2) c)::int`;
}

const countsRow = z.object({ all: z.number(), mine: z.number(), unassigned: z.number(), overdue: z.number() });

export interface CaseQueueOptions {
  readonly filter?: CaseFilter;
  readonly viewer?: Viewer | null;
  readonly limit?: number;
  readonly countLimit?: number;
}

/** The queue of a viewer whose scope holds no tenant: nothing to read, the same shape. */
export function emptyCaseQueue(filter: CaseFilter, viewer: Viewer | null): CaseQueue {
  const none: CappedCount = { total: 0, more: false };
  return { filter, counts: { all: none, mine: none, unassigned: none, overdue: none }, items: [], ...whoWorks(viewer) };
}

function whoWorks(viewer: Viewer | null): Pick<CaseQueue, "viewerWorks" | "workedBy"> {
  return { viewerWorks: viewer !== null && can(viewer.role, "cases:work"), workedBy: CASE_WORKERS };
}

/** The case queue for the given tenants (the caller's scope: nothing outside it is read). */
export async function loadCaseQueue(tenants: readonly string[], options: CaseQueueOptions = {}): Promise<CaseQueue> {
  const filter = options.filter ?? "all";
  const limit = options.limit ?? 50;
  const countLimit = options.countLimit ?? 1_000;
  const viewer = options.viewer ?? null;
  const owner = viewer?.actor ?? "";
  const [items, counts] = await Promise.all([
    rows(getPool(), caseFactsRow, caseQueueSql(filter), filter === "mine" ? [tenants, limit, owner] : [tenants, limit]),
    one(
      getPool(),
      countsRow,
      `SELECT ${countSql("all")} AS all, ${countSql("mine")} AS mine, ${countSql("unassigned")} AS unassigned, ${countSql("overdue")} AS overdue`,
      [tenants, countLimit + 1, owner],
    ),
  ]);
  const capped = (n: number): CappedCount => ({ total: Math.min(n, countLimit), more: n > countLimit });
  return {
    filter,
    counts: { all: capped(counts.all), mine: capped(counts.mine), unassigned: capped(counts.unassigned), overdue: capped(counts.overdue) },
    items: items.map((facts) => caseView(facts, viewer)),
    ...whoWorks(viewer),
  };
}
