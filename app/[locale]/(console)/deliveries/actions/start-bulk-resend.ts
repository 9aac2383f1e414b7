"use server";

import { z } from "zod";
import { instant } from "@/lib/audit/queries/filters";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { batchSummary } from "@/lib/bulk/batches";
import { startResendBatch } from "@/lib/deliveries/bulk-resend";
import { reasonInput } from "@/lib/orders/console-event";

const input = z.object({
  /** From the preview: the same id again (a double click, another web process) is the same batch. */
  batchId: z.uuid(),
  tenant: z.string().trim().min(1).max(64),
  since: instant,
  reason: reasonInput,
});

/** Starts (or restarts, retrying what failed) a bulk resend; the work runs in chunks (run-bulk-resend-chunk). */
export const startBulkResend = defineAction(
  { name: "deliveries.bulk-resend-start", permission: "deliveries:send", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    await startResendBatch({ batchId: v.batchId, tenantId: resource.tenantId, since: v.since, reason: v.reason, actor });
    return batchSummary(v.batchId);
  },
);
