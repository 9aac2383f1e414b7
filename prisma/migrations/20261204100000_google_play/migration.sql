-- Google Play refunds (issue 16, item 3): real-time developer notifications pushed by Pub/Sub, and
-- the Voided Purchases API polled for what the pushes missed.
--
-- Both land in store_notifications (store 'googleplay'), which already takes them: a push is keyed
-- by its Pub/Sub messageId, a polled void by 'voided:' || orderId || ':' || voidedTimeMillis, so a
-- redelivered push and a void read again by the next poll are duplicates that change nothing. A push
-- and a poll of the same void are two facts, and act once: the order's refund is keyed by the
-- orderId (lib/stores/google/model.ts).

-- Which app of the tenant's Google Play may speak for, and how its Pub/Sub push proves it is Google:
-- the push subscription's OIDC token must be for this audience and this service account. Nulls: not
-- connected (every push is refused, nothing is polled).
ALTER TABLE "tenant_settings"
    ADD COLUMN "google_package_name" TEXT,
    ADD COLUMN "google_push_audience" TEXT,
    ADD COLUMN "google_push_service_account" TEXT;

-- How far the Voided Purchases poll has read, per tenant and store: the newest voidedTime seen (the
-- next poll starts a little before it), and when the tenant was last polled (a worker claims a
-- tenant that is due by moving polled_at under FOR UPDATE SKIP LOCKED, so two workers never poll it
-- at once). Each completed run is an audit fact (store.voided-purchases-polled).
CREATE TABLE "store_poll_cursors" (
    "tenant_id"  TEXT NOT NULL,
    "store"      TEXT NOT NULL,
    "cursor_at"  TIMESTAMPTZ(3),
    "polled_at"  TIMESTAMPTZ(6),
    "last_error" TEXT,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "store_poll_cursors_pkey" PRIMARY KEY ("tenant_id", "store"),
    CONSTRAINT "store_poll_cursors_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id"),
    CONSTRAINT "store_poll_cursors_store_check" CHECK ("store" IN ('appstore', 'googleplay'))
);

-- A quantity-based partial refund (Google's voidedQuantity): the ledger cannot yet take back part of
-- a line, so a person does — a case for ops, due like the other store cases.
ALTER TABLE "tenant_settings" ALTER COLUMN "case_sla_seconds" SET DEFAULT
    '{"amount-mismatch": 14400, "payment-after-close": 14400, "payment-after-refund": 14400, "second-payment": 14400,
      "reversal-impossible": 14400, "store-refund-reversed": 14400, "store-partial-refund": 14400, "delivery-incomplete": 3600, "delivery-failed": 3600}';
UPDATE "tenant_settings" SET "case_sla_seconds" = "case_sla_seconds" || '{"store-partial-refund": 14400}'
    WHERE NOT "case_sla_seconds" ? 'store-partial-refund';
