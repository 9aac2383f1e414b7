-- The pay path (issue 28).
--
-- audit_fact_hash was declared IMMUTABLE over a body that calls convert_to, which is STABLE, and
-- PostgreSQL inlines a SQL function only when its body is no more volatile than it is declared. Not
-- inlined, the chain trigger ran it as a separate SQL function, set up again in every transaction:
-- a sixth of a pay's database time (bench/ANALYSIS.md, issue 28). STABLE is what it is; the body, and
-- so every hash, is unchanged.
CREATE OR REPLACE FUNCTION "audit_fact_hash"("prev" BYTEA, "fact" JSONB) RETURNS BYTEA
LANGUAGE sql STABLE AS $$
    SELECT sha256(coalesce(prev, ''::bytea)
                  || convert_to(jsonb_strip_nulls(fact - 'chain_seq' - 'prev_hash' - 'hash')::text, 'UTF8'))
$$;

-- (tenant_id, state, id, created_at) beside (tenant_id, state, created_at, id): the unpaid-order
-- close job now walks the second by (created_at, id), as the orders list does, so every pay and
-- every state change updates one index fewer.
DROP INDEX "orders_tenant_id_state_id_created_at_idx";
