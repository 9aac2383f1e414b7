import "server-only";
import type { Staff } from "@/lib/auth/staff";
import { listBatches, type BatchSummary, type ItemRow, type PastBatch } from "@/lib/bulk/batches";

/** The bulk compensation page's read model: the products a batch may be run for, and the newest batches of them. */
export interface BulkModel {
  /** The caller's products: a batch is made for one of them. */
  readonly tenants: readonly string[];
  /** Newest first, with their results per status. */
  readonly batches: readonly PastBatch[];
}

export async function readBulk(staff: Staff): Promise<BulkModel> {
  return { tenants: staff.tenantIds, batches: await listBatches(staff.tenantIds) };
}

/** One batch's results (app/api/console/bulk/[batchId]): the counts, and each order's outcome in batch order. */
export interface BulkBatchResults {
  readonly summary: BatchSummary | null;
  readonly items: readonly ItemRow[];
}
