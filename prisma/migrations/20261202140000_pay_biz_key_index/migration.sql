-- The only reader of (tenant_id, event, biz_key) is the console's search by payment transaction id
-- (event = 'pay'). Other events share a handful of bizKeys — '' for begin-delivery, 'timeout' for
-- every close by the job — so for them the index is dead weight on every insert, and a trap: while
-- the table's statistics lagged its growth, the planner took it for the duplicate check
-- (tenant, order, event, bizKey) and read every close of the tenant on each call (3.5 ms per
-- lookup at 26,600 closes, growing with the table). Partial on pay it is smaller and out of the way.
DROP INDEX "order_transitions_tenant_id_event_biz_key_idx";
CREATE INDEX "order_transitions_pay_biz_key_idx" ON "order_transitions"("tenant_id", "biz_key") WHERE "event" = 'pay';
