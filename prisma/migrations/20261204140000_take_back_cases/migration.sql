-- A take-back the game was never told about is a case for ops (issue 16, item 4): when a take_backs
-- row becomes `failed` (no endpoint, or its attempts used up), lib/jobs/take-back-calls.ts files a
-- `take-back-failed` case in the same transaction, keyed by the row ('take-back:' || id) so a row
-- files one case ever. Otherwise the player keeps goods the tenant paid back (or never gets back
-- goods owed to them again) and nobody is asked to act.
--
-- order_exceptions.kind has no CHECK constraint (the kinds are lib/orders/types.ts EXCEPTION_KINDS),
-- so the new kind needs none.

-- When such a row is later done after all, the worker closes its case itself with this resolution.
ALTER TABLE "order_exceptions" DROP CONSTRAINT "order_exceptions_resolution_check";
ALTER TABLE "order_exceptions"
    ADD CONSTRAINT "order_exceptions_resolution_check" CHECK (
        "resolution" IS NULL OR "resolution" IN ('refund', 'honour', 'accept-and-refund-difference', 'repair', 'compensate', 'delivered', 'order-ended',
                                                 'take-back-done'));

-- Money class (the tenant lost goods it paid back, or owes goods): due in 4 hours, like the other
-- store cases.
ALTER TABLE "tenant_settings" ALTER COLUMN "case_sla_seconds" SET DEFAULT
    '{"amount-mismatch": 14400, "payment-after-close": 14400, "payment-after-refund": 14400, "second-payment": 14400,
      "reversal-impossible": 14400, "store-refund-reversed": 14400, "store-partial-refund": 14400, "take-back-failed": 14400,
      "delivery-incomplete": 3600, "delivery-failed": 3600}';
UPDATE "tenant_settings" SET "case_sla_seconds" = "case_sla_seconds" || '{"take-back-failed": 14400}'
    WHERE NOT "case_sla_seconds" ? 'take-back-failed';
