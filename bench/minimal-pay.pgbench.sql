-- The physical reference for a pay: the least a database must do to record one, on bare tables
-- (bench/transit-vs-pgbench.ts makes them: keys only, no triggers, no secondary indexes, no JSON).
-- Lock the order, check the payment is new, log it, move the order by compare-and-set, queue its
-- message, commit. Run with -M prepared. Variables (-D): n=0 base=<first order id> stride=<orders per client>
\set n :n + 1
\set id :base + :client_id * :stride + :n
BEGIN;
SELECT state, version FROM bare_orders WHERE id = :id FOR UPDATE \gset o_
SELECT EXISTS (SELECT 1 FROM bare_transitions WHERE order_id = :id AND event = 'pay' AND biz_key = :id::text) AS duplicate;
INSERT INTO bare_transitions (order_id, event, from_state, to_state, biz_key) VALUES (:id, 'pay', :o_state, 'paid', :id::text);
UPDATE bare_orders SET state = 'paid', version = version + 1 WHERE id = :id AND state = :o_state AND version = :o_version;
INSERT INTO bare_outbox (order_id, topic) VALUES (:id, 'order.transitioned');
COMMIT;
