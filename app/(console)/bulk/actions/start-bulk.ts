"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";
import { batchSummary, createBatch, retryFailed } from "@/lib/bulk/batches";
import { MAX_BATCH_ORDERS } from "@/lib/bulk/parse-order-numbers";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";

const input = z.object({
  batchId: z.uuid(),
  tenant: z.string().min(1),
  orderNos: z.array(z.string().min(1).max(64)).min(1).max(MAX_BATCH_ORDERS),
  reason: z.string().trim().min(MIN_REASON_LENGTH, `Give a reason of at least ${MIN_REASON_LENGTH} characters.`).max(500),
});

/**
 * Records the batch (the same id again adds nothing) and puts failed items back in line, so
 * starting it again retries only what failed. The work itself runs in chunks (run-bulk-chunk).
 */
export const startBulk = defineAction({ name: "bulk.start", permission: "orders:bulk", input }, async (v, { staff, actor }) => {
  await requireTenantScope(staff, v.tenant, `bulk:${v.batchId}`);
  await createBatch({ batchId: v.batchId, tenantId: v.tenant, orderNos: v.orderNos, reason: v.reason, actor });
  await retryFailed(v.batchId);
  return batchSummary(v.batchId);
});
