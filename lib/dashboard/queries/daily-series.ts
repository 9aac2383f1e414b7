import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";

export const SERIES_DAYS = 30;

export interface DailyPoint {
  /** The UTC day, "2026-11-03". */
  readonly day: string;
  readonly lost: number;
  readonly refunds: number;
}

export interface DailySeries {
  readonly tenantId: string;
  /** paid + delivering max dwell: how long paying-to-delivered may take. Null if either is unset. */
  readonly lostAfterSeconds: number | null;
  /** Oldest first, SERIES_DAYS days ending today (UTC). */
  readonly days: readonly DailyPoint[];
}

const dayRow = z.object({ day: z.string(), lost: z.number(), refunds: z.number(), lostAfterSeconds: z.number().nullable() });

/**
 * Lost orders and refunds per UTC day over the last SERIES_DAYS days (today included), for one tenant.
 *
 * A LOST order, counted on the UTC day of its payment: its `pay` transition happened that day, and
 * it had no `confirm-delivery` transition within T of that payment, where
 * T = max dwell in `paid` + max dwell in `delivering` (tenant_settings.max_dwell_seconds) — by then
 * both stuck alarms would have fired. Payments younger than T are not counted yet: they can still
 * make it. An order refunded before it was delivered counts as lost (the player paid and did not get
 * the goods in time); one delivered late counts as lost, though it was delivered in the end. T is
 * today's setting, applied to the whole window.
 *
 * REFUNDS: `confirm-refund` transitions per UTC day.
 *
 * Both come from order_transitions alone, in one range read of the tenant's last 30 days
 * ((tenant_id, created_at DESC, id DESC)); pays and deliveries are matched by order in a hash
 * aggregate. A delivery within T of a payment inside the window is itself inside the window, so the
 * window is all we read. Bounded by the window, never by the table.
 */
export async function dailySeries(tenantId: string): Promise<DailySeries> {
  const days = await rows(getPool(), dayRow, DAILY_SERIES_SQL, [tenantId, SERIES_DAYS]);
  return {
    tenantId,
    lostAfterSeconds: days[0]?.lostAfterSeconds ?? null,
    days: days.map(({ day, lost, refunds }) => ({ day, lost, refunds })),
  };
}

/** $1 tenant id, $2 number of days. Exported for the plan test. */
export const DAILY_SERIES_SQL = `WITH settings AS (
       SELECT ((max_dwell_seconds->>'paid')::int + (max_dwell_seconds->>'delivering')::int) AS t FROM tenant_settings WHERE tenant_id = $1
     ), bounds AS (
       SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AS today
     ), w AS MATERIALIZED (
       SELECT ot.order_id, ot.event, ot.created_at FROM order_transitions ot, bounds
       WHERE ot.tenant_id = $1
         AND ot.created_at >= (bounds.today - ($2::int - 1) * interval '1 day') AT TIME ZONE 'UTC'
         AND ot.event IN ('pay', 'confirm-delivery', 'confirm-refund')
     ), per_order AS (
       SELECT min(created_at) FILTER (WHERE event = 'pay') AS paid_at,
              min(created_at) FILTER (WHERE event = 'confirm-delivery') AS delivered_at
       FROM w WHERE event IN ('pay', 'confirm-delivery') GROUP BY order_id
     ), lost AS (
       SELECT date_trunc('day', p.paid_at AT TIME ZONE 'UTC') AS day, count(*)::int AS n
       FROM per_order p, settings s
       WHERE p.paid_at IS NOT NULL AND s.t IS NOT NULL
         AND p.paid_at + s.t * interval '1 second' <= now()
         AND (p.delivered_at IS NULL OR p.delivered_at > p.paid_at + s.t * interval '1 second')
       GROUP BY 1
     ), refunds AS (
       SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS n FROM w WHERE event = 'confirm-refund' GROUP BY 1
     )
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(lost.n, 0) AS lost, coalesce(refunds.n, 0) AS refunds,
            (SELECT t FROM settings) AS "lostAfterSeconds"
     FROM bounds, generate_series(bounds.today - ($2::int - 1) * interval '1 day', bounds.today, interval '1 day') AS d(day)
     LEFT JOIN lost ON lost.day = d.day
     LEFT JOIN refunds ON refunds.day = d.day
     ORDER BY d.day`;
