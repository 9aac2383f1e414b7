import { REVERSAL_GRANT_PREFIX } from "@/lib/orders/grant-decision";
import { COORDINATOR, coordinatorGrantIdSql } from "./delivery-keys";
import { lit, micros, u, us } from "./sql-helpers";

const REPAIR_REASON = "repair delivery: granted by hand after the grant endpoint outage";

/**
 * The grants ledger, per line in up to three batches: granted while delivery began (1), granted
 * just before confirm-delivery, after whatever came between such as a refund requested and
 * rejected (2), and confirm-refund's reversal of both, with transit()'s grant id and reason (3).
 *
 * - The game server (external delivery) grants line 1 in two batches when split (always when
 *   delivery stalled half way) and the other lines in batch 2.
 * - The coordinator (managed delivery) grants whole lines in sku order with its own keys
 *   (delivery-keys.ts). Batch 1 holds the lines before the one a stalled run fails on
 *   (catalog-rows.ts), batch 2 the rest: in one pass or retried after a failure, the rows are alike.
 * - A stalled delivery has batch 1 only; a repaired one's batch 2 was granted by ops in the console.
 *
 * The VALUES rows carry only what decides whether a row exists and when; who granted it under which
 * key is made in the outer select, for the surviving rows only (the coordinator's long grantIds
 * would otherwise be built for every empty batch too, at a cost the benchmarks see).
 */
export const GRANTS_SQL = `
    INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason, created_at)
    SELECT p.tenant_id, p.id, l.sku,
      CASE g.batch
        WHEN 1 THEN CASE WHEN tn.managed THEN ${coordinatorGrantIdSql("p.order_no", "l.sku", "'0'")} ELSE q.grant_key || '1' END
        WHEN 2 THEN CASE WHEN p.repaired THEN 'repair:' || p.id || ':' || l.sku
          WHEN tn.managed THEN ${coordinatorGrantIdSql("p.order_no", "l.sku", "q.first_qty")} ELSE q.grant_key || '2' END
        ELSE ${lit(REVERSAL_GRANT_PREFIX)} || e.refund_key END,
      g.quantity,
      CASE WHEN g.batch = 3 THEN e.refund_source WHEN g.batch = 2 AND p.repaired THEN 'console' ELSE tn.delivery_source END,
      CASE WHEN g.batch = 3 THEN e.refund_actor WHEN g.batch = 2 AND p.repaired THEN 'staff:ops@example.com' ELSE tn.delivery_actor END,
      CASE WHEN g.batch = 3 THEN l.disposition || ': ' || coalesce(e.refund_reason, 'refund confirmed')
        WHEN g.batch = 2 AND p.repaired THEN ${lit(REPAIR_REASON)}
        WHEN tn.managed THEN ${lit(COORDINATOR.grantReason)} END,
      g.at
    FROM seed_plan p
    JOIN seed_scenarios sc ON sc.scenario = p.scenario AND sc.delivery <> 'none'
    JOIN seed_ev e ON e.id = p.id
    JOIN seed_tenants tn ON tn.t = p.t
    JOIN seed_lines l ON l.t = p.t AND l.product = p.product
    CROSS JOIN LATERAL (SELECT
        CASE WHEN tn.managed THEN CASE WHEN l.before_stall THEN l.quantity ELSE 0 END
          WHEN l.line_no > 1 THEN 0 WHEN p.split OR sc.delivery = 'partial' THEN l.quantity / 2 ELSE l.quantity END AS first_qty,
        tn.grant_prefix || ':' || p.id || ':' || l.sku || ':' AS grant_key) q
    CROSS JOIN LATERAL (VALUES
      (1, q.first_qty,
        -- Where the line's grant falls in its batch's window: offset and scale in catalog-rows.ts.
        e.begin_at + ${micros(`(l.first_off + ${u("p.i", "60 + l.line_no * 3")} * l.pos_scale) * 0.5 * ${us(`coalesce(e.begin_next_at, least(e.begin_at + interval '1 minute', $now::timestamptz))`, "e.begin_at")}`)}),
      (2, CASE WHEN sc.delivery = 'full' THEN l.quantity - q.first_qty ELSE 0 END,
        e.confirm_at - ${micros(`(l.last_off + ${u("p.i", "61 + l.line_no * 3")} * l.pos_scale) * 0.5 * ${us("e.confirm_at", "e.confirm_prev_at")}`)}),
      (3, CASE WHEN sc.final_state = 'refunded' THEN -(CASE WHEN sc.delivery = 'full' THEN l.quantity ELSE q.first_qty END) ELSE 0 END,
        e.refund_at)
    ) AS g(batch, quantity, at)
    WHERE g.quantity <> 0
    ORDER BY p.id, l.line_no, g.batch`;

/**
 * What each seeded refund's reversal did, as lib/orders/write-ledger.ts records it for a live one: a
 * take_backs row per reversal row, under the line's default rule. The demo's game took back what was
 * revoked long ago (`done`); a write-off is `recorded`.
 */
export const TAKE_BACKS_SQL = `
    INSERT INTO take_backs (tenant_id, order_id, player_id, sku, kind, grant_id, units, rule, status, created_at, updated_at)
    SELECT g.tenant_id, g.order_id, p.player_id, g.sku, l.kind, g.grant_id, g.quantity, l.disposition,
      CASE WHEN l.disposition = 'revoke' THEN 'done' ELSE 'recorded' END, g.created_at, g.created_at
    FROM seed_plan p
    JOIN seed_lines l ON l.t = p.t AND l.product = p.product
    JOIN grants g ON g.order_id = p.id AND g.sku = l.sku AND g.quantity < 0
    ORDER BY g.id`;
