import "server-only";
import { z } from "zod";
import { rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { logConditions } from "./audit-rows";
import { summaryRange, streamsFor, tenantsToRead, type AuditFilters } from "./filters";
import { AUDIT_LOGS, kindOfAction, type AuditKind, type AuditLog } from "./kinds";
import { alias, actorColumn, Params, perTenant, tableOf } from "./log-streams";

export interface ActorSummaryPart {
  readonly log: AuditLog;
  /** Null for an action name this version does not know. */
  readonly kind: AuditKind | null;
  /** The event (transitions), `grant` or `reversal` (grants), `note`, or the action's name. */
  readonly what: string;
  /** Distinct orders these facts were about (0 for facts about no order). */
  readonly orders: number;
  readonly facts: number;
}

export interface ActorSummaryRow {
  readonly actor: string;
  /** Distinct orders this actor changed or wrote about in the range, whatever the kind. */
  readonly orders: number;
  readonly facts: number;
  /** Per kind of fact (per event, for transitions), the busiest first. */
  readonly parts: readonly ActorSummaryPart[];
}

export type ActorSummary =
  | {
      readonly status: "ok";
      readonly from: Date;
      readonly to: Date;
      /** The filtered range was longer than the summary reads: it covers the end of it. */
      readonly clipped: boolean;
      readonly rows: readonly ActorSummaryRow[];
      /** More actors than shown (the busiest first). */
      readonly truncated: boolean;
    }
  | { readonly status: "too-slow"; readonly from: Date; readonly to: Date }
  | { readonly status: "not-applicable" };

/** Busiest actors shown; the table is a summary, not a second explorer. */
export const SUMMARY_ACTORS = 30;
const TIMEOUT = "10s";

/** An actor's totals (log null), or their counts for one kind of fact. */
const countRow = z.object({ actor: z.string(), log: z.enum(AUDIT_LOGS).nullable(), what: z.string().nullable(), orders: z.number(), facts: z.number() });

/** What each log's facts are counted as. */
const WHAT: Readonly<Record<AuditLog, (a: string) => string>> = {
  transition: (a) => `${a}.event`,
  grant: (a) => `CASE WHEN ${a}.quantity < 0 THEN 'reversal' ELSE 'grant' END`,
  note: () => `'note'`,
  action: (a) => `${a}.action`,
};

/**
 * Who did how much, over the filtered range: every kind of fact the explorer shows (transitions by
 * event, grants, notes, audit_events by action), with the distinct orders each touched. It reads
 * every fact in range, so the range is bounded by summaryRange() and the statement by a timeout: a
 * slow summary answers "too slow, narrow the range" instead of holding a connection.
 *
 * Plan: per tenant and log, a range of (tenant_id, created_at DESC, id DESC) — or of (tenant_id,
 * actor, created_at DESC, id DESC) with an actor filter — then a hash aggregate.
 */
export async function actorSummary(scope: readonly string[], filters: AuditFilters, now: Date): Promise<ActorSummary> {
  const tenants = tenantsToRead(scope, filters.tenant);
  const streams = streamsFor(filters);
  const logs = AUDIT_LOGS.filter((log) => streams[log]);
  if (tenants.length === 0 || logs.length === 0) return { status: "not-applicable" };
  const { from, to, clipped } = summaryRange(filters, now);

  const p = new Params();
  const tenantsParam = p.add(tenants);
  const orderNo = filters.order !== undefined ? p.add(filters.order) : undefined;
  const ranged = { ...filters, from, to };
  const parts = logs.map((log) => {
    const a = alias(log);
    const where = [`${a}.tenant_id = s.tenant_id`, ...logConditions(log, ranged, p), ...(orderNo !== undefined ? [`${a}.order_id = o.id`] : [])];
    return `SELECT '${log}' AS log, x.* FROM ${perTenant(tenantsParam, orderNo)}
            CROSS JOIN LATERAL (SELECT ${actorColumn(log)} AS actor, ${WHAT[log](a)} AS what, ${a}.order_id FROM ${tableOf(log)} ${a} WHERE ${where.join(" AND ")}) x`;
  });

  let counts: z.output<typeof countRow>[];
  try {
    // A transaction only so that SET LOCAL bounds this one statement: the connection goes back to
    // the pool without the timeout.
    counts = await transaction(
      ({ client }) =>
        rows(
          client,
          countRow,
          `WITH f AS (${parts.join(" UNION ALL ")}),
           per_actor AS (
             SELECT actor, count(DISTINCT order_id)::int AS orders, count(*)::int AS facts FROM f GROUP BY actor
             ORDER BY orders DESC, facts DESC, actor LIMIT ${SUMMARY_ACTORS + 1}
           )
           SELECT a.actor, NULL AS log, NULL AS what, a.orders, a.facts FROM per_actor a
           UNION ALL
           SELECT f.actor, f.log, f.what, count(DISTINCT f.order_id)::int, count(*)::int FROM f JOIN per_actor a USING (actor) GROUP BY f.actor, f.log, f.what`,
          p.values,
        ),
      { setLocal: [`SET LOCAL statement_timeout = '${TIMEOUT}'`] },
    );
  } catch (error) {
    // 57014: query_canceled — here, only the statement timeout above.
    if ((error as { code?: string }).code === "57014") return { status: "too-slow", from, to };
    throw error;
  }

  const actors = counts.filter((r) => r.log === null).sort((a, b) => b.orders - a.orders || b.facts - a.facts || a.actor.localeCompare(b.actor));
  const summary = actors.slice(0, SUMMARY_ACTORS).map((a) => ({
    actor: a.actor,
    orders: a.orders,
    facts: a.facts,
    parts: counts
      .filter((r): r is typeof r & { log: AuditLog; what: string } => r.actor === a.actor && r.log !== null && r.what !== null)
      .sort((x, y) => y.facts - x.facts || x.what.localeCompare(y.what))
      .map((r) => ({ log: r.log, kind: kindOf(r.log, r.what), what: r.what, orders: r.orders, facts: r.facts })),
  }));
  return { status: "ok", from, to, clipped, rows: summary, truncated: actors.length > SUMMARY_ACTORS };
}

function kindOf(log: AuditLog, what: string): AuditKind | null {
  return log === "action" ? kindOfAction(what) : log;
}
