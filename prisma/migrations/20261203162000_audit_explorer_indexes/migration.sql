-- The audit explorer and the admins' security log read audit_events per tenant, newest first (and
-- per actor), the way they read order_transitions and grants. Until now only (created_at, id)
-- existed, so a tenant's stream walked every other tenant's rows (and every sign-in) to fill a
-- page; a tenant with few rows read the whole index. Facts without a tenant (sign-ins, staff
-- accounts) are the `tenant_id IS NULL` range of the same index.
CREATE INDEX "audit_events_tenant_id_created_at_id_idx" ON "audit_events"("tenant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "audit_events_tenant_id_actor_created_at_id_idx" ON "audit_events"("tenant_id", "actor", "created_at" DESC, "id" DESC);

-- Notes by author, like the other logs by actor.
CREATE INDEX "order_notes_tenant_id_author_created_at_id_idx" ON "order_notes"("tenant_id", "author", "created_at" DESC, "id" DESC);
