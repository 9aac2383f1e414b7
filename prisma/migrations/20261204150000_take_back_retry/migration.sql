-- Ops can retry a failed take-back from its case (lib/cases/resolve-take-back.ts): the choice is
-- recorded on the `take-back-failed` case as resolution 'retry-take-back' while the case stays in
-- progress, and the take_backs row is owed again; the worker then closes the case itself with
-- 'take-back-done' once the game answers. Without this value the choice cannot be recorded, and the
-- only way out of such a case was dismissing it.
ALTER TABLE "order_exceptions" DROP CONSTRAINT "order_exceptions_resolution_check";
ALTER TABLE "order_exceptions"
    ADD CONSTRAINT "order_exceptions_resolution_check" CHECK (
        "resolution" IS NULL OR "resolution" IN ('refund', 'honour', 'accept-and-refund-difference', 'repair', 'compensate', 'delivered', 'order-ended',
                                                 'take-back-done', 'retry-take-back'));
