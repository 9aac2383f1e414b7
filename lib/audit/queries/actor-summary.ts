import "server-only";
import { z } from "zod";
import { rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { isOrderEvent, ORDER_EVENTS, type OrderEvent } from "@/lib/orders/machine";
import { summaryRange, tenantsToRead, type AuditFilters } from "./filters";

export interface ActorSummaryRow {
  readonly actor: string;
  /** Distinct orders this actor moved in the range, whatever the event. */
  readonly orders: number;
  readonly transitions: number;
  /** Per event: distinct orders and transitions. */
  readonly byEvent: readonly { readonly event: OrderEvent; readonly orders: number; readonly transitions: number }[];
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

/** An actor's totals (event null), or their counts for one event. */
const countRow = z.object({ actor: z.string(), event: z.enum(ORDER_EVENTS).nullable(), orders: z.number(), transitions: z.number() });

/**
 * Who changed how many orders, by event, over the filtered range (order transitions only: staff
 * actions do not change orders). It reads every transition in range, so the range is bounded by
 * summaryRange() and the statement by a timeout: a slow summary answers "too slow, narrow the
 * range" instead of holding a connection.
 *
 * Plan: per tenant, a range of (tenant_id, created_at DESC, id DESC) — or of (tenant_id, actor,
 * created_at DESC, id DESC) with an actor filter — then a hash aggregate.
 */
export async function actorSummary(scope: readonly string[], filters: AuditFilters, now: Date): Promise<ActorSummary> {
  const tenants = tenantsToRead(scope, filters.tenant);
  const eventOk = filters.event === undefined || isOrderEvent(filters.event);
  if (tenants.length === 0 || filters.kind === "staff" || !eventOk) return { status: "not-applicable" };
  const { from, to, clipped } = summaryRange(filters, now);

  const values: unknown[] = [tenants, from, to];
  const where = ["ot.tenant_id = s.tenant_id", "ot.created_at >= $2", "ot.created_at < $3"];
  const add = (sql: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (filters.actor !== undefined) add((p) => `ot.actor = ${p}`, filters.actor);
  if (filters.event !== undefined) add((p) => `ot.event = ${p}`, filters.event);
  if (filters.source !== undefined) add((p) => `ot.source = ${p}`, filters.source);
  if (filters.reason === "with") where.push(`(ot.reason IS NOT NULL AND ot.reason <> '')`);
  if (filters.reason === "without") where.push(`NOT (ot.reason IS NOT NULL AND ot.reason <> '')`);

  let counts: z.output<typeof countRow>[];
  try {
    // A transaction only so that SET LOCAL bounds this one statement: the connection goes back to
    // the pool without the timeout.
    counts = await transaction(
      ({ client }) =>
        rows(
          client,
          countRow,
          `WITH t AS (
             SELECT ot.actor, ot.event, ot.order_id
             FROM unnest($1::text[]) AS s(tenant_id)
             CROSS JOIN LATERAL (SELECT ot.actor, ot.event, ot.order_id FROM order_transitions ot WHERE ${where.join(" AND ")}) ot
           ), per_actor AS (
             SELECT actor, count(DISTINCT order_id)::int AS orders, count(*)::int AS transitions FROM t GROUP BY actor
             ORDER BY orders DESC, actor LIMIT ${SUMMARY_ACTORS + 1}
           )
           SELECT a.actor, NULL AS event, a.orders, a.transitions FROM per_actor a
           UNION ALL
           SELECT t.actor, t.event, count(DISTINCT t.order_id)::int, count(*)::int FROM t JOIN per_actor a USING (actor) GROUP BY t.actor, t.event`,
          values,
        ),
      { setLocal: [`SET LOCAL statement_timeout = '${TIMEOUT}'`] },
    );
  } catch (error) {
    // 57014: query_canceled — here, only the statement timeout above.
    if ((error as { code?: string }).code === "57014") return { status: "too-slow", from, to };
    throw error;
  }

  const actors = counts.filter((r) => r.event === null).sort((a, b) => b.orders - a.orders || a.actor.localeCompare(b.actor));
  const summary = actors.slice(0, SUMMARY_ACTORS).map((a) => ({
    actor: a.actor,
    orders: a.orders,
    transitions: a.transitions,
    byEvent: counts
      .filter((r): r is typeof r & { event: OrderEvent } => r.actor === a.actor && r.event !== null)
      .sort((x, y) => y.orders - x.orders || x.event.localeCompare(y.event))
      .map((r) => ({ event: r.event, orders: r.orders, transitions: r.transitions })),
  }));
  return { status: "ok", from, to, clipped, rows: summary, truncated: actors.length > SUMMARY_ACTORS };
}
