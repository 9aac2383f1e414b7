// The statements an app query function really runs, and their plans. The console's query
// functions build their SQL from filters and call getPool().query(); wrapping that one method for
// the length of a call records every statement with its parameters, so the benchmark and the
// EXPLAIN test look at exactly what the console sends — never at a copy of its SQL.
import type pg from "pg";

export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

type Query = (...args: unknown[]) => unknown;

/** Runs `work`, recording each statement it sends through `pool.query` (calls run as usual). */
export async function captureStatements<T>(pool: pg.Pool, work: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
  const target = pool as unknown as { query: Query };
  const original = target.query;
  const statements: Statement[] = [];
  target.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === "string") statements.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === "object" && "text" in first) {
      const config = first as { text: string; values?: unknown[] };
      statements.push({ text: config.text, values: config.values ?? (Array.isArray(second) ? second : []) });
    }
    return original.apply(this, args);
  };
  try {
    return { result: await work(), statements };
  } finally {
    target.query = original;
  }
}

export interface PlanNode {
  readonly "Node Type": string;
  readonly "Relation Name"?: string;
  readonly "Index Name"?: string;
  readonly "Index Cond"?: string;
  readonly Plans?: readonly PlanNode[];
}

interface ExplainOutput {
  readonly Plan: PlanNode;
  readonly "Planning Time"?: number;
  readonly "Execution Time"?: number;
}

export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/** The big tables whose scans must come from an index at any size. */
export const LARGE_TABLES = new Set(["orders", "order_transitions", "grants", "outbox_messages"]);

const INDEX_SCANS = new Set(["Index Scan", "Index Only Scan", "Bitmap Index Scan"]);

export interface PlanVerdict {
  /** "Seq Scan on orders" for every sequential scan of a large table. */
  readonly seqScans: string[];
  /** Every index read on a large table (index scans, index-only scans, bitmap index scans). */
  readonly indexes: string[];
}

/** How a plan reads the large tables. Bitmap index scans name no relation: their index does. */
export function judgePlan(plan: PlanNode): PlanVerdict {
  const nodes = planNodes(plan);
  const seqScans = nodes
    .filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] !== undefined && LARGE_TABLES.has(n["Relation Name"]))
    .map((n) => `Seq Scan on ${n["Relation Name"]}`);
  const indexes = nodes
    .filter(
      (n) =>
        INDEX_SCANS.has(n["Node Type"]) &&
        n["Index Name"] !== undefined &&
        ((n["Relation Name"] !== undefined && LARGE_TABLES.has(n["Relation Name"])) ||
          [...LARGE_TABLES].some((t) => n["Index Name"]!.startsWith(`${t}_`))),
    )
    .map((n) => n["Index Name"]!);
  return { seqScans, indexes };
}

/** EXPLAIN (FORMAT JSON) of one statement, with its parameters: the plan the server would run. */
export async function explain(db: pg.Pool | pg.PoolClient, statement: Statement): Promise<PlanNode> {
  const { rows } = await db.query<{ "QUERY PLAN": ExplainOutput[] }>(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
  return rows[0]!["QUERY PLAN"][0]!.Plan;
}

/**
 * EXPLAIN (ANALYZE, TIMING OFF) runs the statement and reports the server's planning and
 * execution time without per-node clock reads (which would inflate it). Statements that are
 * themselves an EXPLAIN (the orders list's row estimate) are only planned: their time is 0 here.
 */
export async function serverTime(db: pg.Pool | pg.PoolClient, statement: Statement): Promise<{ ms: number; plan: PlanNode | null }> {
  if (/^\s*EXPLAIN/i.test(statement.text)) return { ms: 0, plan: null };
  const { rows } = await db.query<{ "QUERY PLAN": ExplainOutput[] }>(
    `EXPLAIN (ANALYZE, TIMING OFF, BUFFERS OFF, FORMAT JSON) ${statement.text}`,
    [...statement.values],
  );
  const out = rows[0]!["QUERY PLAN"][0]!;
  return { ms: (out["Planning Time"] ?? 0) + (out["Execution Time"] ?? 0), plan: out.Plan };
}
