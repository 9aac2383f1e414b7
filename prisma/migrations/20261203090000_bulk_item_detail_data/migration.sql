-- A bulk item's outcome is kept as data (the steps taken, or the problem that stopped it) and worded
-- in the reader's language when shown, instead of an English sentence. Earlier rows keep their text
-- as a JSON string.
ALTER TABLE "bulk_batch_items" ALTER COLUMN "detail" TYPE JSONB USING to_jsonb("detail");
