// The history: one row per transition in seed_steps (when, who, with which bizKey and reason), the
// moments grants and exceptions hang off (seed_ev), and the copy into order_transitions.
import { deliveryBizKeySql } from "./delivery-keys";
import { gapSql } from "./gap-sql";
import { local, MINUTE_US, pick, u } from "./sql-helpers";

/** Who acted on each step; that decides actor, source and bizKey. */
const WHO = `CASE z.event
      WHEN 'pay' THEN CASE WHEN z.manual_pay THEN 'ops' ELSE 'channel' END
      WHEN 'begin-delivery' THEN 'delivery'
      WHEN 'confirm-delivery' THEN CASE WHEN z.repaired THEN 'ops' ELSE 'delivery' END
      WHEN 'close' THEN CASE WHEN z.close_via = 'job' THEN 'job' ELSE 'agent' END
      -- Above the tenant's approval amount an agent's request waits for a manager: keep those to the channels.
      WHEN 'request-refund' THEN CASE WHEN ${u("z.i", "40 + z.step")} < 0.4 AND z.amount <= z.refund_approval_amount THEN 'agent' ELSE 'channel' END
      ELSE CASE WHEN ${u("z.i", "40 + z.step")} < 0.25 THEN 'ops' ELSE 'channel' END
    END`;

/**
 * At the plan's created_at plus the running sum of gaps, so the last step lands exactly on the
 * order's state_at. Console actions carry a per-form key, the channels their transaction and
 * refund ids, the timeout job `timeout`, delivery the key of whoever drives it (delivery-keys.ts).
 */
export const STEPS_SQL = `
    INSERT INTO seed_steps (id, i, step, event, from_state, to_state, at, prev_at, next_at, biz_key, actor, source, reason)
    SELECT y.id, y.i, y.step, y.event, y.from_state, y.to_state, y.at,
      coalesce(lag(y.at) OVER w, y.created_at), lead(y.at) OVER w,
      CASE y.event
        WHEN 'pay' THEN y.channel || '-' || ${local("y.at", "YYYYMMDDHH24MISS")} || lpad(y.id::text, 10, '0')
        WHEN 'close' THEN CASE y.who WHEN 'job' THEN 'timeout' ELSE y.form_key END
        WHEN 'begin-delivery' THEN ${deliveryBizKeySql("y", "y.id")}
        WHEN 'confirm-delivery' THEN CASE y.who WHEN 'ops' THEN y.form_key ELSE ${deliveryBizKeySql("y", "y.id")} END
        ELSE CASE y.who WHEN 'agent' THEN y.form_key
          ELSE 'RF' || ${local("y.created_at", "YYYYMMDD")} || lpad(y.id::text, 10, '0') || lpad(y.cycle::text, 2, '0') END
      END,
      CASE y.who WHEN 'channel' THEN 'channel:' || y.channel WHEN 'delivery' THEN y.delivery_actor
        WHEN 'ops' THEN 'staff:ops@example.com' WHEN 'agent' THEN 'staff:agent@example.com' ELSE 'system:timeout-close' END,
      CASE y.who WHEN 'channel' THEN 'callback' WHEN 'delivery' THEN y.delivery_source WHEN 'job' THEN 'job' ELSE 'console' END,
      CASE y.event
        WHEN 'pay' THEN CASE y.who WHEN 'ops' THEN 'manual confirmation: the player sent the ' || y.channel || ' receipt' END
        WHEN 'confirm-delivery' THEN CASE y.who WHEN 'ops' THEN 'repair delivery: pending lines granted by hand after the grant endpoint outage' END
        WHEN 'close' THEN CASE y.who WHEN 'job' THEN 'unpaid after ' || (y.unpaid_us / ${MINUTE_US}) || ' min'
          ELSE ${pick(["player cancelled before paying", "duplicate order opened by mistake", "player wants a different pack"], "y.i", "50 + y.step")} END
        WHEN 'request-refund' THEN CASE y.who WHEN 'agent' THEN ${pick(["player bought the wrong pack", "charged twice for the same pack", "items did not arrive in time", "minor's purchase, guardian asked for a refund"], "y.i", "50 + y.step")}
          ELSE 'refund requested by the player through ' || y.channel END
        WHEN 'reject-refund' THEN CASE y.who WHEN 'ops' THEN ${pick(["refused after review: the items were already used", "refused: outside the 7-day refund window"], "y.i", "50 + y.step")}
          ELSE 'refused by ' || y.channel || ': ' || ${pick(["items already consumed", "outside the refund window", "duplicate refund request"], "y.i", "50 + y.step")} END
        WHEN 'confirm-refund' THEN CASE y.who WHEN 'ops' THEN 'refund receipt checked by ops' ELSE 'refund completed by ' || y.channel END
      END
    FROM (
      SELECT z.*, ${WHO} AS who, 'form-' || left(md5(z.id || ':' || z.step), 16) AS form_key
      FROM (
        SELECT p.id, p.i, p.channel, p.manual_pay, p.repaired, p.created_at, p.amount, d.step, d.event, d.from_state,
          d.to_state, d.cycle, tn.managed, tn.delivery_actor, tn.delivery_source, tn.delivery_key_prefix, tn.unpaid_us,
          tn.refund_approval_amount, sc.close_via,
          p.created_at + sum(${gapSql({ i: "p.i", step: "d.step", event: "d.event", manualPay: "p.manual_pay", repaired: "p.repaired", closeVia: "sc.close_via", unpaidUs: "tn.unpaid_us" })})
            OVER (PARTITION BY p.id ORDER BY d.step) * interval '1 microsecond' AS at
        FROM seed_plan p
        JOIN seed_steps_def d ON d.scenario = p.scenario
        JOIN seed_tenants tn ON tn.t = p.t
        JOIN seed_scenarios sc ON sc.scenario = p.scenario
      ) z
    ) y
    WINDOW w AS (PARTITION BY y.id ORDER BY y.step)`;

/** One row per order: the moments (and the refund's key, actor and reason) grants and exceptions hang off. */
export const MOMENTS_SQL = `
    INSERT INTO seed_ev
    SELECT id,
      min(at) FILTER (WHERE event = 'pay'), min(next_at) FILTER (WHERE event = 'pay'),
      min(at) FILTER (WHERE event = 'begin-delivery'), min(next_at) FILTER (WHERE event = 'begin-delivery'),
      min(at) FILTER (WHERE event = 'confirm-delivery'), min(prev_at) FILTER (WHERE event = 'confirm-delivery'),
      min(at) FILTER (WHERE event = 'confirm-refund'), min(biz_key) FILTER (WHERE event = 'confirm-refund'),
      min(actor) FILTER (WHERE event = 'confirm-refund'), min(source) FILTER (WHERE event = 'confirm-refund'),
      min(reason) FILTER (WHERE event = 'confirm-refund'),
      min(at) FILTER (WHERE event = 'close')
    FROM seed_steps GROUP BY id`;

export const TRANSITIONS_SQL = `
    INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
    SELECT p.tenant_id, s.id, s.event, s.from_state, s.to_state, s.biz_key, s.actor, s.source, s.reason, s.at
    FROM seed_steps s JOIN seed_plan p ON p.id = s.id
    ORDER BY s.id, s.step`;
