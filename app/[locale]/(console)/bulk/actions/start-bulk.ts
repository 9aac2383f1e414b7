"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { batchSummary, startBatch } from "@/lib/bulk/batches";
import { MAX_BATCH_ORDERS } from "@/lib/bulk/parse-order-numbers";
import { reasonInput } from "@/lib/orders/console-event";

const input = z.object({
  batchId: z.uuid(),
  tenant: z.string().min(1),
  orderNos: z.array(z.string().min(1).max(64)).min(1).max(MAX_BATCH_ORDERS),
  reason: reasonInput,
});

/** Starts (or restarts, retrying what failed) a batch; the work runs in chunks (run-bulk-chunk). */
export const startBulk = defineAction(
  { name: "bulk.start", permission: "orders:bulk", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    await startBatch({ batchId: v.batchId, tenantId: resource.tenantId, orderNos: v.orderNos, reason: v.reason, actor });
    return batchSummary(v.batchId);
  },
);
