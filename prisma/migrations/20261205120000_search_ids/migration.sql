-- The header search finds an order by every id the console shows (issue 29): each an equality
-- lookup on an index that leads with tenant_id, so a search stays a handful of index probes at
-- 1,000,000 orders. Indexes the lookups already had: orders (tenant_id, order_no) and (tenant_id,
-- player_id, created_at), the pay transition's biz_key, payment_refunds (tenant_id, refund_id) and
-- (tenant_id, payment_txn), and store_purchases' two transaction ids.

-- Order numbers are matched whatever the letter case staff type or paste them in.
CREATE INDEX "orders_tenant_id_lower_order_no_idx" ON "orders"("tenant_id", lower("order_no"));

-- The refund receipts and refund ids on the order's history: the channel's receipt on confirm-refund
-- and reject-refund (typed by ops, or sent by the channel), a store's key on reverse-refund, and the
-- refund id of request-refund. Partial, like the pay index (20261202140000_pay_biz_key_index): the
-- other events' keys are shared ('' for begin-delivery, 'timeout' for every close by the job), so
-- they would only weigh on every insert and tempt the planner.
CREATE INDEX "order_transitions_refund_biz_key_idx" ON "order_transitions"("tenant_id", "biz_key")
    WHERE "event" IN ('request-refund', 'confirm-refund', 'reject-refund', 'reverse-refund');

-- The transaction id of a payment the ledger could not apply (a second payment, one after close or
-- refund, a wrong amount) lives only on its case; other cases' keys are a store's or a take-back's.
CREATE INDEX "order_exceptions_tenant_id_biz_key_idx" ON "order_exceptions"("tenant_id", "biz_key") WHERE "biz_key" <> '';

-- The channel's reference for its answer to a refund we asked for (its receipt): set once settled.
CREATE INDEX "payment_refunds_tenant_id_channel_ref_idx" ON "payment_refunds"("tenant_id", "channel_ref") WHERE "channel_ref" IS NOT NULL;

-- Grant ids: the game's or the delivery coordinator's id of each grant, shown on the order's lines.
CREATE INDEX "grants_tenant_id_grant_id_idx" ON "grants"("tenant_id", "grant_id");
