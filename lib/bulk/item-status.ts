// What became of one order of a bulk batch: a leaf vocabulary, so the browser's past-batches table
// can list the statuses without importing the batches module (server-only, database access).

export const ITEM_STATUSES = ["pending", "applied", "nothing-to-do", "refused", "failed"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
