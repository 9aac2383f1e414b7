import "server-only";
import { z } from "zod";
import { execute, maybeOne, prepared, type Queryable } from "@/lib/db/sql";
import { PRESENCE_TTL_SECONDS } from "./timing";

// Who has an order open in the console, kept in PostgreSQL (prisma/migrations/20261206090000_order_presence)
// so that any web process on any node answers the same: an open order page's one poll
// (components/orders/live-order.tsx, every POLL_SECONDS of ./timing.ts) renews its own row, and the same statement
// answers what the page needs to stay live — the order's version, the changes since the version the
// page (or its oldest open form) stands on, and who else is here. One round trip, one small write.

/** At most this many of the latest changes are named to a page that fell behind: the form says who and what, not the whole history. */
export const MAX_CHANGES = 5;

/** A colleague who has the order open now: name and role, nothing else of theirs. */
export interface PresentColleague {
  readonly name: string;
  readonly role: string;
  /** When their page arrived (the earliest of their open tabs), ISO time. */
  readonly since: string;
}

/** A change of the order after the version the page stands on: the transition that made `version`. */
export interface OrderChange {
  readonly version: number;
  readonly event: string;
  readonly from: string;
  readonly to: string;
  /** As the timeline writes it: `staff:<email>`, `channel`, `job:…`, `apikey:…`. */
  readonly actor: string;
  /** The staff member's name, when a colleague made the change. */
  readonly name: string | null;
  readonly at: string;
}

/** What an open order page's poll answers. */
export interface OrderLive {
  readonly state: string;
  readonly version: number;
  /** Newest first; empty while the page is current. */
  readonly changes: readonly OrderChange[];
  /** Everyone else who has the order open now, earliest first; never the caller. */
  readonly present: readonly PresentColleague[];
}

const liveRow = z.object({
  state: z.string(),
  version: z.number(),
  changes: z.array(
    z.object({ version: z.number(), event: z.string(), from: z.string(), to: z.string(), actor: z.string(), name: z.string().nullable(), at: z.string() }),
  ),
  present: z.array(z.object({ name: z.string(), role: z.string(), since: z.string() })),
});

/**
 * $1 tenant, $2 order no, $3 staff id, $4 tab id, $5 ttl (seconds), $6 the version the page stands on,
 * $7 the poll's number in its tab (null from a page loaded before polls were numbered).
 * The order is found by its unique (tenant_id, order_no); the caller's row is inserted or renewed by
 * its primary key, but only by a poll numbered after the last request applied to it: a poll that was
 * on its way when the tab left finds the leave's higher number and changes nothing. A row that had
 * left or expired arrives again, with a new `since`. This order's expired rows (but the caller's own)
 * are deleted on the way. Every CTE reads the snapshot from before the writes, so `here` skips
 * expired and left rows by their columns rather than relying on the writes.
 */
const HEARTBEAT = prepared(
  "presence.heartbeat",
  `WITH o AS (
     SELECT id, state, version FROM orders WHERE tenant_id = $1 AND order_no = $2
   ), gone AS (
     DELETE FROM order_presence p USING o
     WHERE p.tenant_id = $1 AND p.order_id = o.id AND p.expires_at <= now() AND NOT (p.staff_id = $3 AND p.tab_id = $4)
   ), me AS (
     INSERT INTO order_presence (tenant_id, order_id, staff_id, tab_id, since, expires_at, seq)
     SELECT $1, o.id, $3, $4, now(), now() + make_interval(secs => $5::float8), COALESCE($7::bigint, 0) FROM o
     ON CONFLICT (tenant_id, order_id, staff_id, tab_id) DO UPDATE SET
       expires_at = excluded.expires_at,
       seq = GREATEST(order_presence.seq, excluded.seq),
       left_at = NULL,
       since = CASE WHEN order_presence.left_at IS NULL AND order_presence.expires_at > now() THEN order_presence.since ELSE now() END
     WHERE $7::bigint IS NULL OR order_presence.seq < $7::bigint
   ), here AS (
     SELECT p.staff_id, min(p.since) AS since FROM order_presence p, o
     WHERE p.tenant_id = $1 AND p.order_id = o.id AND p.expires_at > now() AND p.left_at IS NULL AND p.staff_id <> $3
     GROUP BY p.staff_id
   )
   SELECT o.state, o.version,
     COALESCE((SELECT json_agg(json_build_object('version', c.version, 'event', c.event, 'from', c.from_state, 'to', c.to_state,
                                                 'actor', c.actor, 'name', s.name, 'at', c.created_at) ORDER BY c.version DESC)
               FROM (SELECT t.event, t.from_state, t.to_state, t.actor, t.created_at,
                            o.version + 1 - row_number() OVER (ORDER BY t.id DESC) AS version
                     FROM order_transitions t
                     WHERE t.tenant_id = $1 AND t.order_id = o.id
                     ORDER BY t.id DESC LIMIT LEAST(GREATEST(o.version - $6::int, 0), ${MAX_CHANGES})) c
               LEFT JOIN staff_users s ON c.actor = 'staff:' || s.email), '[]') AS changes,
     COALESCE((SELECT json_agg(json_build_object('name', s.name, 'role', s.role, 'since', h.since) ORDER BY h.since, s.name)
               FROM here h JOIN staff_users s ON s.id = h.staff_id), '[]') AS present
   FROM o`,
);

/**
 * $1 tenant, $2 order no, $3 staff id, $4 tab id, $5 ttl (seconds), $6 the leave's number in its tab.
 * Marks the tab's row left rather than deleting it, so a poll sent before the leave cannot bring it
 * back; written even when no row is there yet (the tab's first poll may still be on its way). The
 * mark is kept for a full expiry, then swept like any expired row.
 */
const LEAVE = prepared(
  "presence.leave",
  `INSERT INTO order_presence (tenant_id, order_id, staff_id, tab_id, since, expires_at, seq, left_at)
   SELECT $1, o.id, $3, $4, now(), now() + make_interval(secs => $5::float8), COALESCE($6::bigint, 0), now()
   FROM orders o WHERE o.tenant_id = $1 AND o.order_no = $2
   ON CONFLICT (tenant_id, order_id, staff_id, tab_id) DO UPDATE SET
     left_at = now(), expires_at = excluded.expires_at, seq = GREATEST(order_presence.seq, excluded.seq)
   WHERE order_presence.left_at IS NULL AND ($6::bigint IS NULL OR order_presence.seq < $6::bigint)`,
);

export interface PresenceCall {
  readonly tenantId: string;
  readonly orderNo: string;
  readonly staffId: number;
  readonly tabId: string;
  /**
   * The request's number in its tab, counting up from 1 over the tab's polls and its leave; absent
   * from a page loaded before requests were numbered (then the request always applies, as it did).
   */
  readonly seq?: number;
}

/**
 * The page `tabId` of `staffId` is on the order now (for `ttlSeconds` more); answers what the page
 * needs to stay live, or null when there is no such order (then nothing is written).
 */
export function heartbeat(db: Queryable, call: PresenceCall & { readonly since: number }, ttlSeconds: number = PRESENCE_TTL_SECONDS): Promise<OrderLive | null> {
  return maybeOne(db, liveRow, HEARTBEAT, [call.tenantId, call.orderNo, call.staffId, call.tabId, ttlSeconds, call.since, call.seq ?? null]);
}

/**
 * The page was hidden or closed: nobody sees it from now, not at its expiry, and no poll it sent
 * before leaving brings it back. Returns 1 when the leave was recorded, 0 when there is no such order
 * or the tab had already left or polled again since.
 */
export function leave(db: Queryable, call: PresenceCall, ttlSeconds: number = PRESENCE_TTL_SECONDS): Promise<number> {
  return execute(db, LEAVE, [call.tenantId, call.orderNo, call.staffId, call.tabId, ttlSeconds, call.seq ?? null]);
}

/**
 * Deletes up to `batchSize` rows whose expiry passed: the tabs of orders nobody polls any more (each
 * poll already deletes its own order's), and the marks of tabs that left. Rows being renewed right now are skipped, never waited for.
 */
export function sweepPresence(db: Queryable, batchSize = 10_000): Promise<number> {
  return execute(
    db,
    `DELETE FROM order_presence WHERE ctid IN (SELECT ctid FROM order_presence WHERE expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batchSize],
  );
}
