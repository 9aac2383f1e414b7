-- transit() as pgbench runs it: the same five round trips and the same SQL as lib/orders/transit.ts
-- and lib/orders/write-transitions.ts for a `pay` on an order in `created` (BEGIN; lock the order
-- row; the facts statement; the one write statement: transitions + compare-and-set update + outbox
-- messages + ledger reversals, each from arrays of one element, the reversal part inert; COMMIT).
-- Run with -M extended, so every :variable is a bound parameter as node-postgres sends it. pgbench
-- binds only scalars, so the write's one-element arrays are written ARRAY[:x] where transit sends
-- an array parameter; the outbox payload, which transit builds in JS, is built here by the server.
-- Variables (-D): n=0 base=<first order id> stride=<orders per client> to=paid actor=… source=callback
--   reason=… refundfrom=false lines=false history=false empty={} prefix=refund:
-- Each client pays its own orders, base + client_id·stride + 1, 2, 3, … (distinct orders, like the
-- 16 transit() clients), and uses the order id as the bizKey. Keep this file in step with transit.ts.
\set n :n + 1
\set id :base + :client_id * :stride + :n
BEGIN;
SELECT id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version FROM orders WHERE id = :id FOR UPDATE \gset o_
SELECT
       (SELECT row_to_json(t) FROM (SELECT id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at" FROM order_transitions
          WHERE tenant_id = :o_tenantId AND order_id = :o_id AND event = 'pay' AND biz_key = :id) t) AS duplicate,
       CASE WHEN :refundfrom THEN (SELECT from_state FROM order_transitions
          WHERE tenant_id = :o_tenantId AND order_id = :o_id AND event = 'request-refund' ORDER BY id DESC LIMIT 1) END AS "refundFrom",
       CASE WHEN :lines OR :history THEN (SELECT json_agg(l) FROM (SELECT l.sku, l.kind, l.quantity,
      COALESCE(SUM(g.quantity) FILTER (WHERE g.quantity > 0), 0)::int AS granted,
      COALESCE(-SUM(g.quantity) FILTER (WHERE g.quantity < 0), 0)::int AS reversed
    FROM order_lines l
    LEFT JOIN grants g ON g.tenant_id = l.tenant_id AND g.order_id = l.order_id AND g.sku = l.sku
    WHERE l.tenant_id = :o_tenantId AND l.order_id = :o_id
    GROUP BY l.id, l.sku, l.kind, l.quantity
    ORDER BY l.sku) l) END AS lines,
       CASE WHEN :history THEN (SELECT json_agg(t ORDER BY t.id) FROM (SELECT id, event, from_state AS "from", to_state AS "to",
  biz_key AS "bizKey", actor, source, reason, created_at AS "at" FROM order_transitions
          WHERE tenant_id = :o_tenantId AND order_id = :o_id) t) END AS transitions;
WITH x AS (
       SELECT * FROM unnest(ARRAY[:o_id::bigint], ARRAY[:o_tenantId::text], ARRAY['pay'::text], ARRAY[:o_state::text], ARRAY[:to::text],
                            ARRAY[:id::text], ARRAY[:actor::text], ARRAY[:source::text], ARRAY[:reason::text], ARRAY[:o_version::int],
                            ARRAY['order.transitioned'::text],
                            ARRAY[jsonb_build_object('tenantId', :o_tenantId::text, 'orderNo', :o_orderNo::text, 'event', 'pay', 'from', :o_state::text,
                                  'to', :to::text, 'version', :o_version::int + 1, 'bizKey', :id::text, 'source', :source::text)])
         AS x(order_id, tenant, event, from_state, to_state, biz_key, actor, source, reason, seen_version, topic, payload)
     ), t AS (
       INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason)
       SELECT tenant, order_id, event, from_state, to_state, biz_key, actor, source, reason FROM x
       RETURNING order_id AS "orderId", id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at"
     ), o AS (
       UPDATE orders SET state = x.to_state, state_at = now(), version = version + 1, updated_at = now()
       FROM x WHERE orders.id = x.order_id AND orders.state = x.from_state AND orders.version = x.seen_version
       RETURNING id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version
     ), m AS (
       INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
       SELECT x.tenant, x.order_id, x.topic, x.payload || jsonb_build_object('at', t."at")
       FROM x JOIN o ON o.id = x.order_id JOIN t ON t."orderId" = x.order_id
     ), r AS (
       INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason)
       SELECT x.tenant, x.order_id, g.sku, :prefix || x.biz_key, g.quantity, x.source, x.actor,
              g.disposition || ': ' || coalesce(x.reason, 'refund confirmed')
       FROM unnest(:empty::bigint[], :empty::text[], :empty::int[], :empty::text[]) AS g(order_id, sku, quantity, disposition)
       JOIN x ON x.order_id = g.order_id JOIN o ON o.id = g.order_id
     )
     SELECT row_to_json(o) AS order, row_to_json(t) AS transition FROM o JOIN t ON t."orderId" = o.id;
COMMIT;
