-- An order's audit chain keeps its head on the order's own row (issue 28).
--
-- Every pay wrote its order's chain head as a row of audit_chain_heads (a new row for an order's
-- first fact), through a trigger that ran for the transition: with the hash, an eighth of a pay's
-- database time. transit already locks and updates the order's row, so the head now moves in that
-- same UPDATE, and transit's write statement links its transitions itself (lib/orders/
-- write-transitions.ts): their chain_seq, prev_hash and hash arrive set, and the trigger, which
-- now runs only for a fact without a hash, is not called for them. Every other writer (grants,
-- notes, audit facts about an order, the demo seeder) is linked by the trigger as before, and it
-- moves the head on the order's row. Chains without an order (a tenant's, the global one) keep
-- their heads in audit_chain_heads. What the chains prove is unchanged: `audit verify` recomputes
-- every hash and link and compares every head, wherever it is kept.

ALTER TABLE "orders" ADD COLUMN "chain_seq" BIGINT NOT NULL DEFAULT 0, ADD COLUMN "chain_hash" BYTEA;

-- How far the checkpoint job has sealed each order's chain. Not on the order's row: sealing 5,000
-- chains at a time would lock and rewrite 5,000 orders under the payments.
CREATE TABLE "audit_chain_seals" (
    "tenant_id"  TEXT   NOT NULL,
    "order_id"   BIGINT NOT NULL,
    "sealed_seq" BIGINT NOT NULL,
    CONSTRAINT "audit_chain_seals_pkey" PRIMARY KEY ("tenant_id", "order_id")
) WITH (fillfactor = 70);

UPDATE "orders" o SET "chain_seq" = h.seq, "chain_hash" = h.hash
FROM "audit_chain_heads" h WHERE h.order_id = o.id AND h.tenant_id = o.tenant_id;
INSERT INTO "audit_chain_seals" (tenant_id, order_id, sealed_seq)
SELECT h.tenant_id, h.order_id, h.sealed_seq FROM "audit_chain_heads" h JOIN "orders" o ON o.id = h.order_id AND o.tenant_id = h.tenant_id
WHERE h.sealed_seq > 0;
DELETE FROM "audit_chain_heads" h USING "orders" o WHERE h.order_id = o.id AND h.tenant_id = o.tenant_id;

-- Every chain's head, wherever it is kept, and how far it is sealed: what `audit verify` and the
-- checkpoint job read.
CREATE VIEW "audit_chain_tips" AS
    SELECT tenant_id, order_id, seq, hash, sealed_seq FROM "audit_chain_heads"
    UNION ALL
    SELECT o.tenant_id, o.id, o.chain_seq, o.chain_hash, coalesce(s.sealed_seq, 0)
    FROM "orders" o LEFT JOIN "audit_chain_seals" s ON s.tenant_id = o.tenant_id AND s.order_id = o.id
    WHERE o.chain_seq > 0;

CREATE OR REPLACE FUNCTION "chain_audit_fact"() RETURNS trigger
LANGUAGE plpgsql SET timezone = 'UTC' AS $$
DECLARE
    fact   JSONB  := to_jsonb(NEW);
    tenant TEXT   := coalesce(fact->>'tenant_id', '');
    ord    BIGINT := coalesce((fact->>'order_id')::bigint, 0);
    head   RECORD;
BEGIN
    IF NEW.chain_seq IS NOT NULL THEN
        -- Linked by its writing statement, which also moves the order's head (transit's write), and
        -- left unhashed only because that session renders times in another zone than the hash does.
        NEW.hash := audit_fact_hash(NEW.prev_hash, fact);
        RETURN NEW;
    END IF;
    IF ord <> 0 THEN
        -- A fact about an order: its head is on the order's row. FOR UPDATE: a writer that does not
        -- hold the order's lock already (an exception filed after its transit) waits for it here.
        SELECT chain_seq, chain_hash INTO head FROM orders WHERE id = ord AND tenant_id = tenant FOR UPDATE;
        IF FOUND THEN
            NEW.chain_seq := head.chain_seq + 1;
            NEW.prev_hash := head.chain_hash;
            NEW.hash := audit_fact_hash(head.chain_hash, fact);
            UPDATE orders SET chain_seq = NEW.chain_seq, chain_hash = NEW.hash WHERE id = ord;
            RETURN NEW;
        END IF;
    END IF;
    -- One statement moves the chain's head (creating it for a chain's first fact) and holds its row
    -- lock to the end of the transaction: the new fact links to the hash the head held.
    INSERT INTO audit_chain_heads AS h (tenant_id, order_id, seq, prev_hash, hash)
    VALUES (tenant, ord, 1, NULL, audit_fact_hash(NULL, fact))
    ON CONFLICT (tenant_id, order_id) DO UPDATE
        SET seq = h.seq + 1, prev_hash = h.hash, hash = audit_fact_hash(h.hash, fact), updated_at = clock_timestamp()
    RETURNING h.seq, h.prev_hash, h.hash INTO NEW.chain_seq, NEW.prev_hash, NEW.hash;
    RETURN NEW;
END;
$$;

-- Called only for a fact that arrives without its hash: transit's transitions arrive linked.
DROP TRIGGER "order_transitions_chain" ON "order_transitions";
DROP TRIGGER "grants_chain" ON "grants";
DROP TRIGGER "order_notes_chain" ON "order_notes";
DROP TRIGGER "audit_events_chain" ON "audit_events";
CREATE TRIGGER "order_transitions_chain" BEFORE INSERT ON "order_transitions" FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION "chain_audit_fact"();
CREATE TRIGGER "grants_chain" BEFORE INSERT ON "grants" FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION "chain_audit_fact"();
CREATE TRIGGER "order_notes_chain" BEFORE INSERT ON "order_notes" FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION "chain_audit_fact"();
CREATE TRIGGER "audit_events_chain" BEFORE INSERT ON "audit_events" FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION "chain_audit_fact"();
