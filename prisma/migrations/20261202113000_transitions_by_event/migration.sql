-- The dashboard's per-day series (pay, confirm-delivery, confirm-refund per day) and the audit
-- explorer's event filter read transitions by (tenant, event, time): 6 s → 0.8 s on 1.55M rows,
-- answered from the index alone thanks to the included order_id.
CREATE INDEX "order_transitions_tenant_id_event_created_at_id_idx" ON "order_transitions"("tenant_id", "event", "created_at", "id") INCLUDE ("order_id");
