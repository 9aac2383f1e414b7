-- An internal note's idempotency key (issue 12, item 4): the console's composer makes one per note
-- it sends, so a double submit (a double click, a retry after a timeout) adds one note, not two.
-- Null for notes written without one (scripts, older rows); NULLs never collide in a unique index.
--
-- The unique index is the backstop, not the check: the chain trigger links a note BEFORE the
-- insert, so addNote looks for the key first and a lost race fails its whole transaction (the
-- chain head's move with it) — never an ON CONFLICT that would skip the row after moving the head.
ALTER TABLE "order_notes" ADD COLUMN "request_key" TEXT;
CREATE UNIQUE INDEX "order_notes_tenant_id_order_id_request_key_key" ON "order_notes"("tenant_id", "order_id", "request_key");
