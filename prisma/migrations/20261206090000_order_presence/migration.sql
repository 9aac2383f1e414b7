-- Who has an order open in the console now (issue 26): one row per open order page (a browser tab),
-- written by the page's poll (lib/presence/order-presence.ts) every few seconds and read back by the
-- same request, so every web process on every node sees the same people. Nothing about presence
-- lives in a process: a node that dies leaves rows that simply expire.
--
-- - `tab_id` is made by the page when it opens; `staff_id` comes from the session, never from the
--   browser, and is part of the key, so a caller can only ever renew or mark its own rows.
-- - `since` is when the tab arrived; `expires_at` is pushed forward by each poll. A tab that cannot
--   say it is leaving (a crash, a dead node, a lost network) is gone once `expires_at` passes:
--   readers skip expired rows, the poll deletes its own order's, and the worker sweeps the rest
--   (lib/jobs/worker.ts "presence").
-- - A tab that is hidden or closed says it is leaving: its row is marked `left_at` (readers skip it)
--   and kept for one more expiry, then swept like any other. It is marked rather than deleted because
--   a poll can be on its way when the tab leaves, and two nodes may answer them out of order.
-- - `seq` counts a tab's requests: the page numbers each poll and its leave, and a request applies
--   to the row only if its number is above the last one applied. A poll sent before the leave is
--   lower than the leave, so it changes nothing; the first poll after the tab is shown again is
--   higher, and brings the tab back with a new `since`.
-- - No foreign keys: an insert would take a KEY SHARE lock on the order row, which waits behind
--   transit()'s FOR UPDATE; the rows are transient and are joined to staff_users at read time, so a
--   renamed colleague shows under the new name.
-- - No index on expires_at, seq or left_at: the poll's update then touches no indexed column and
--   stays a HOT update (room left on the page by the fillfactor); the worker's sweep reads a table
--   whose size is the number of open tabs.
CREATE TABLE "order_presence" (
    "tenant_id"  TEXT           NOT NULL,
    "order_id"   BIGINT         NOT NULL,
    "staff_id"   BIGINT         NOT NULL,
    "tab_id"     UUID           NOT NULL,
    "since"      TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "seq"        BIGINT         NOT NULL DEFAULT 0,
    "left_at"    TIMESTAMPTZ(6),
    CONSTRAINT "order_presence_pkey" PRIMARY KEY ("tenant_id", "order_id", "staff_id", "tab_id")
) WITH (fillfactor = 50);
