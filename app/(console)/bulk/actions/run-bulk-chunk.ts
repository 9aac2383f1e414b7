"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { batchSummary, runBatchChunk } from "@/lib/bulk/batches";
import { batchInScope } from "@/lib/bulk/scope";

const input = z.object({ batchId: z.uuid() });

/** Handles the next few pending items of a batch; the page calls it until nothing is left. */
export const runBulkChunk = defineAction({ name: "bulk.run-chunk", permission: "orders:bulk", input }, async ({ batchId }, { staff, actor }) => {
  await batchInScope(staff, batchId);
  const handled = await runBatchChunk({ batchId, actor, limit: 10 });
  return { handled, summary: await batchSummary(batchId) };
});
