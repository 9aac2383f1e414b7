-- Fixed-window counters in the database (lib/db/rate-window.ts), so that a limit is one budget for
-- every web process on every machine. Until now the API key failure throttle and the cap on audited
-- store notification refusals counted in each process's memory: with N processes an address got N
-- times the failures, and each process wrote its own audit row for the same address and minute.
--
-- One row per thing counted: `scope` says which limit (lib/db/rate-window.ts RateScope), `key` what
-- within it (a caller's address, a store and tenant). An event either counts on in the window that
-- is still running or, once `ends_at` has passed, starts the window again at 1 — one
-- INSERT … ON CONFLICT DO UPDATE, so concurrent events queue on the row and each sees its own count.
--
-- No tenant_id, unlike the other tables: a failed API key has no tenant (the key did not
-- authenticate), and the rows are transient — nothing here is kept or read beside a tenant's data.
CREATE TABLE "rate_windows" (
    "scope"   TEXT           NOT NULL,
    "key"     TEXT           NOT NULL,
    "count"   INTEGER        NOT NULL,
    "ends_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "rate_windows_pkey" PRIMARY KEY ("scope", "key")
);

-- The worker's sweep of windows that ended long ago (lib/jobs/worker.ts "rate-windows"): someone
-- spraying addresses leaves a row for each. Counting within a window leaves ends_at alone, so the
-- updates of a busy row do not touch this index.
CREATE INDEX "rate_windows_ends_at_idx" ON "rate_windows"("ends_at");
