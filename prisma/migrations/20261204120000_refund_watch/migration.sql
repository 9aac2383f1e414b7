-- Refund abuse at a glance (issue 16, item 6): a tenant may put players whose refunded share of
-- their spend (refunded ÷ paid, per currency, from the ledger) is at or above this percentage on a
-- watch list that agents see on every order of theirs. Null: no watch list.
ALTER TABLE "tenant_settings"
    ADD COLUMN "refund_watch_percent" INTEGER,
    ADD CONSTRAINT "tenant_settings_refund_watch_check" CHECK ("refund_watch_percent" BETWEEN 1 AND 100);
