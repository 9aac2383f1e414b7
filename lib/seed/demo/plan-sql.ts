import { DEMO_CATALOG, pickTable, SCENARIOS, type HistoryProfile } from "../demo-catalog";
import { TENANT_ORDER } from "./catalog-rows";
import { gapSql } from "./gap-sql";
import { DAY_US, local, MINUTE_US, u } from "./sql-helpers";

/** Settled orders end somewhere in the last 89 days, their whole history included. */
const WINDOW_US = 89 * DAY_US;

/**
 * An order's number: the tenant's prefix, the order date (Asia/Shanghai) and the order id, so a
 * second run never collides. Made once per order, here: the coordinator's grantIds carry it too.
 */
const ORDER_NO = `n.order_prefix || ${local("n.created_at", "YYYYMMDD")} || lpad(n.id::text, 10, '0')`;

/**
 * The plan: one row per order of the chunk in seed_plan — tenant, scenario, product, player,
 * channel, the rare variations (manual payment, repaired delivery, split first grant) and its
 * span in time, ending `tail` before now. The first 2×|scenarios| orders of a run are a showcase,
 * one of every scenario per tenant, so even a small seed has every state, stuck order and exception.
 *
 * Order ids are drawn from the orders sequence here, in order index order (seed-demo.ts runs the
 * plans one chunk after another for that).
 */
export function planSql(history: HistoryProfile): string {
  const showcase = SCENARIOS.length * TENANT_ORDER.length;
  const scenarioPick = `ARRAY[${pickTable(SCENARIOS.map((s) => s.weight[history])).join(",")}]`;
  const productPick = `ARRAY[${TENANT_ORDER.map((id) => `[${pickTable(DEMO_CATALOG[id].products.map((p) => p.weight)).join(",")}]`).join(",")}]`;
  const xiaoxiaoShare = DEMO_CATALOG.xiaoxiao.share;

  return `
    INSERT INTO seed_plan (i, id, t, tenant_id, order_no, scenario, product, amount, player_id, channel, manual_pay,
      repaired, split, showcase, created_at, end_at)
    SELECT n.i, n.id, n.t, n.tenant_id, ${ORDER_NO}, n.scenario, n.product, n.price, n.player_id, n.channel,
      n.manual_pay, n.repaired, n.split, n.showcase, n.created_at, n.end_at
    FROM (
    SELECT x.i, nextval(pg_get_serial_sequence('orders', 'id')) AS id, x.t, x.tenant_id, x.order_prefix, x.scenario,
      x.product, x.price, x.player_id, x.channel, x.manual_pay, x.repaired, x.split, x.showcase,
      $now::timestamptz - (x.tail_us + x.span_us) * interval '1 microsecond' AS created_at,
      $now::timestamptz - x.tail_us * interval '1 microsecond' AS end_at
    FROM (
      SELECT o.*, floor(CASE o.tail
          WHEN 'fresh' THEN ${u("o.i", 5)} * 0.8 * o.dwell_us
          WHEN 'stuck' THEN o.dwell_us + ${15 * MINUTE_US} + ${u("o.i", 5)} * ${u("o.i", 5)} * ${3 * DAY_US}
          ELSE ${u("o.i", 5)} * (${WINDOW_US} - o.span_us)
        END)::bigint AS tail_us
      FROM (
        SELECT o.*, (SELECT coalesce(sum(${gapSql({ i: "o.i", step: "d.step::int", event: "d.event", manualPay: "o.manual_pay", repaired: "o.repaired", closeVia: "o.close_via", unpaidUs: "o.unpaid_us" })}), 0)::bigint
                     FROM unnest(o.events) WITH ORDINALITY AS d(event, step)) AS span_us
        FROM (
          SELECT b.i, b.t, b.scenario, b.showcase, tn.tenant_id, tn.order_prefix, tn.unpaid_us, sc.tail, sc.close_via, sc.events,
            CASE sc.final_state WHEN 'created' THEN tn.dwell_created_us WHEN 'paid' THEN tn.dwell_paid_us
              WHEN 'delivering' THEN tn.dwell_delivering_us WHEN 'refunding' THEN tn.dwell_refunding_us ELSE 0 END AS dwell_us,
            pr.product, pr.price,
            tn.player_prefix || (1000000 + floor(tn.players * power(${u("b.i", 9)}, 1.6)))::bigint AS player_id,
            CASE WHEN ${u("b.i", 4)} < 0.55 THEN 'alipay' ELSE 'wechat' END AS channel,
            NOT b.showcase AND ${u("b.i", 6)} < 0.02 AS manual_pay,
            NOT b.showcase AND ${u("b.i", 7)} < 0.03 AS repaired,
            ${u("b.i", 8)} < 0.3 AS split
          FROM (
            SELECT g.i, g.i <= ${showcase} AS showcase,
              CASE WHEN g.i <= ${showcase} THEN 1 + ((g.i - 1) % ${TENANT_ORDER.length})::int
                   WHEN ${u("g.i", 1)} < ${xiaoxiaoShare} THEN 1 ELSE 2 END AS t,
              CASE WHEN g.i <= ${showcase} THEN 1 + ((g.i - 1) / ${TENANT_ORDER.length})::int
                   ELSE (${scenarioPick})[1 + floor(${u("g.i", 2)} * 1000)::int] END AS scenario
            FROM generate_series($from::bigint, $to::bigint) AS g(i)
          ) b
          JOIN seed_tenants tn ON tn.t = b.t
          JOIN seed_scenarios sc ON sc.scenario = b.scenario
          JOIN seed_products pr ON pr.t = b.t AND pr.product = (${productPick})[b.t][1 + floor(${u("b.i", 3)} * 1000)::int]
        ) o
        OFFSET 0 -- a fence: span_us is used three times above, and must be computed once
      ) o
    ) x
    -- nextval() runs after the sort: ids follow the order index.
    ORDER BY x.i
    ) n`;
}
