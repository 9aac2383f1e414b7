"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { batchScope } from "@/lib/auth/scope";
import { batchSummary, runBatchChunk } from "@/lib/bulk/batches";

const input = z.object({ batchId: z.uuid() });

/** Handles the next few pending items of a batch; the page calls it until nothing is left. */
export const runBulkChunk = defineAction(
  { name: "bulk.run-chunk", permission: "orders:bulk", input, scope: batchScope((v: z.output<typeof input>) => v.batchId) },
  async (_, { actor, resource }) => {
    const handled = await runBatchChunk({ batchId: resource.batchId, actor, limit: 10 });
    return { handled, summary: await batchSummary(resource.batchId) };
  },
);
