-- A bulk batch is one of two kinds (issue 27, item 2): bulk compensation (repair delivery on a list
-- of orders; its items are order numbers) or bulk resend (every dead webhook message of a product
-- since a time; its items are outbox message ids, as text in the item key). Each kind's runner
-- claims only its own batches' items, so one kind's runner never handles the other's.
ALTER TABLE "bulk_batches" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'compensation';
ALTER TABLE "bulk_batches" ADD CONSTRAINT "bulk_batches_kind_check" CHECK ("kind" IN ('compensation', 'resend'));
