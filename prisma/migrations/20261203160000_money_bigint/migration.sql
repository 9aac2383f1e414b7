-- Money is BIGINT minor units, everywhere (issue 11).
--
-- A payment channel may report any amount. When it reported more than 2^31-1 fen the amount-mismatch
-- exception could not be filed (INTEGER out of range), the callback failed with a 500 and the money
-- that arrived was on no screen. Every money column now holds what a JavaScript number holds exactly
-- (the API bounds its inputs at 2^53-1), so the guard sees every amount and the exception is filed.
ALTER TABLE "orders" ALTER COLUMN "amount" TYPE BIGINT;
ALTER TABLE "order_exceptions" ALTER COLUMN "amount" TYPE BIGINT;
ALTER TABLE "refund_approvals" ALTER COLUMN "amount" TYPE BIGINT;
ALTER TABLE "tenant_settings" ALTER COLUMN "refund_approval_amount" TYPE BIGINT;
