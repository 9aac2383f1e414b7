-- A tab that leaves an order stays gone (issue 26, the leave race). A page's poll can be on its way
-- when the page leaves: it reached the server after the leave, re-inserted the row, and the colleague
-- stayed on everyone's screen for a full expiry after they had gone.
--
-- - `seq` counts a tab's requests: the page numbers each poll and its leave, and the server applies
--   a request to the tab's row only if its number is higher than the last one applied. A poll sent
--   before the leave is lower than the leave, so it changes nothing; the first poll after the tab is
--   shown again is higher, and brings the tab back (with a new `since`).
-- - `left_at` marks a row whose tab has left: readers skip it, and it is deleted like any other row
--   once `expires_at` passes (the leave sets a full expiry, the time a late poll may still arrive).
-- Both columns are unindexed, so a poll's update stays a HOT update, as before.
ALTER TABLE "order_presence"
    ADD COLUMN "seq"     BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "left_at" TIMESTAMPTZ(6);
