-- transit() as pgbench runs it: the same five round trips and the same SQL text as
-- lib/orders/transit.ts for a `pay` on an order in `created` (BEGIN; lock the order row; the facts
-- statement; the one write statement: transition + compare-and-set update + outbox message, with
-- the ledger-reversal part inert; COMMIT). Run with -M extended, so every :variable is a bound
-- parameter exactly like node-postgres sends it, and with these variables (-D):
--   n=0 base=<first order id> stride=<orders per client> to=paid actor=… source=callback reason=…
--   refundfrom=false lines=false empty={} prefix=refund:
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
       CASE WHEN :lines THEN (SELECT json_agg(json_build_object('sku', l.sku, 'kind', l.kind, 'quantity', l.quantity,
            'granted', COALESCE(g.granted, 0), 'reversed', COALESCE(g.reversed, 0)) ORDER BY l.sku)
          FROM order_lines l
          LEFT JOIN (SELECT sku, SUM(quantity) FILTER (WHERE quantity > 0)::int AS granted,
                            -SUM(quantity) FILTER (WHERE quantity < 0)::int AS reversed
                     FROM grants WHERE tenant_id = :o_tenantId AND order_id = :o_id GROUP BY sku) g ON g.sku = l.sku
          WHERE l.tenant_id = :o_tenantId AND l.order_id = :o_id) END AS lines;
WITH t AS (
       INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason)
       VALUES (:o_tenantId, :o_id, 'pay', :o_state, :to, :id, :actor, :source, :reason)
       RETURNING id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at"
     ), o AS (
       UPDATE orders SET state = :to, state_at = now(), version = version + 1, updated_at = now()
       WHERE id = :o_id AND state = :o_state AND version = :o_version
       RETURNING id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version
     ), m AS (
       INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
       SELECT o."tenantId", o.id, 'order.transitioned', jsonb_build_object(
         'tenantId', o."tenantId", 'orderNo', o."orderNo", 'event', t.event, 'from', t."from", 'to', t."to",
         'version', o.version, 'bizKey', t."bizKey", 'source', t.source, 'at', t."at")
       FROM o, t
     ), r AS (
       INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason)
       SELECT :o_tenantId, o.id, x.sku, :prefix || :id, x.quantity, :source, :actor, x.disposition || ': ' || coalesce(:reason, 'refund confirmed')
       FROM o, unnest(:empty::text[], :empty::int[], :empty::text[]) AS x(sku, quantity, disposition)
     )
     SELECT (SELECT row_to_json(o) FROM o) AS order, row_to_json(t) AS transition FROM t;
COMMIT;
