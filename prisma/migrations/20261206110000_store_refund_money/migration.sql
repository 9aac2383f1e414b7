-- A store's partial refund moves money (issue 27, item 5): Apple's prorated REFUND
-- (revocationPercentage of the amount) and Google's quantity-based partial void (voidedQuantity over
-- the line quantity, times the amount) return part of what the player paid while the order keeps its
-- state, so the order's own state cannot say it. Each notification that followed such a refund keeps
-- what it moved, in the order's currency and integer minor units (lib/orders/refund-money.ts says how
-- it is computed and rounded): positive for a partial refund, negative for a reversal that gave back
-- what the order's partial refunds had taken. The player's refunded total sums them per order
-- (lib/players/queries/player-summary.ts) through store_notifications (tenant_id, order_id).
-- Null: the notification moved no money of its own (a full refund is the order's `refunded` state).
ALTER TABLE "store_notifications" ADD COLUMN "refunded_amount" BIGINT;
