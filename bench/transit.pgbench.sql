-- transit() as pgbench runs it: written by bench/lib/transit-script.ts from the statements the app
-- prepares; do not edit by hand. A pay on an order in `created`:
-- BEGIN; lock the order row; the facts statement (transit.facts()); the write (transit.write:
-- the transition, linked into the order's audit chain, the compare-and-set update moving the chain's
-- head, the outbox message); COMMIT. Run with -M prepared (the ceiling) or -M extended (unnamed).
-- Variables (-D): n=0 base=<first order id> stride=<orders per client> to=paid actor=… source=callback
--   reason=…. Each client pays its own orders, base + client_id·stride + 1, 2, 3, …, with the order
-- id as the bizKey.
\set n :n + 1
\set id :base + :client_id * :stride + :n
BEGIN;
SELECT id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version FROM orders WHERE id = :id FOR UPDATE \gset o_
WITH mine AS MATERIALIZED (SELECT id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at" FROM order_transitions WHERE tenant_id = :o_tenantId AND order_id = :o_id)
   SELECT
       (SELECT row_to_json(m) FROM mine m WHERE m.event = 'pay' AND m."bizKey" = :id::text) AS duplicate,
       NULL AS "refundFrom",
       NULL AS lines,
       NULL AS transitions,
       NULL AS rules,
       NULL AS "takenBy";
WITH x(order_id, tenant, event, from_state, to_state, biz_key, actor, source, reason, seen_version, topic, payload) AS (
         SELECT :o_id::bigint, :o_tenantId::text, 'pay'::text, :o_state::text, :to::text, :id::text, :actor::text, :source::text, :reason::text, :o_version::int, 'order.transitioned'::text, jsonb_build_object('tenantId', :o_tenantId::text, 'orderNo', :o_orderNo::text, 'event', 'pay', 'from', :o_state::text, 'to', :to::text, 'version', :o_version::int + 1, 'bizKey', :id::text, 'source', :source::text)::jsonb
       ), f AS (
         SELECT x.*, nextval(pg_get_serial_sequence('order_transitions', 'id')) AS id, now() AS at,
                orders.chain_seq + 1 AS chain_seq, orders.chain_hash AS prev_hash
         FROM x JOIN orders ON orders.id = x.order_id
       ), t AS (
         INSERT INTO order_transitions (id, tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at,
                                        chain_seq, prev_hash, hash)
         SELECT id, tenant, order_id, event, from_state, to_state, biz_key, actor, source, reason, at, chain_seq, prev_hash,
                CASE WHEN extract(timezone FROM at) = 0 THEN audit_fact_hash(prev_hash, jsonb_build_object('id', id, 'tenant_id', tenant, 'order_id', order_id, 'event', event, 'from_state', from_state, 'to_state', to_state, 'biz_key', biz_key, 'actor', actor, 'source', source, 'reason', reason, 'created_at', at)) END
         FROM f
         RETURNING order_id AS "orderId", chain_seq AS "chainSeq", hash AS "chainHash", id, event, from_state AS "from", to_state AS "to", biz_key AS "bizKey", actor, source,
  reason, created_at AS "at"
       ), o AS (
         UPDATE orders SET state = w.to_state, state_at = now(), version = version + 1, updated_at = now(),
                           chain_seq = w.chain_seq, chain_hash = w.chain_hash
         FROM (SELECT x.order_id, x.from_state, x.to_state, x.seen_version, t."chainSeq", t."chainHash" FROM x JOIN t ON t."orderId" = x.order_id)
           AS w(order_id, from_state, to_state, seen_version, chain_seq, chain_hash)
         WHERE orders.id = w.order_id AND orders.state = w.from_state AND orders.version = w.seen_version
         RETURNING id, tenant_id AS "tenantId", order_no AS "orderNo", player_id AS "playerId", amount, currency,
  state, state_at AS "stateAt", version
       ), m AS (
         INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
         SELECT x.tenant, x.order_id, x.topic, x.payload || jsonb_build_object('at', t."at")
         FROM x JOIN o ON o.id = x.order_id JOIN t ON t."orderId" = x.order_id
       )
       SELECT row_to_json(o) AS order, row_to_json(t) AS transition FROM o JOIN t ON t."orderId" = o.id;
COMMIT;
