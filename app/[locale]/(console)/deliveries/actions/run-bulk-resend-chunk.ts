"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { batchScope } from "@/lib/auth/scope";
import type { BatchKind } from "@/lib/bulk/batch-kind";
import { batchSummary } from "@/lib/bulk/batches";
import { runResendChunk } from "@/lib/deliveries/bulk-resend";

const input = z.object({ batchId: z.uuid() });

/** Resends the next few messages of a bulk resend; the page calls it until nothing is left. */
export const runBulkResendChunk = defineAction(
  { name: "deliveries.bulk-resend-run", permission: "deliveries:send", input, scope: batchScope((v: z.output<typeof input>) => v.batchId, "resend" satisfies BatchKind) },
  async (_, { actor, resource }) => {
    const handled = await runResendChunk({ batchId: resource.batchId, actor, limit: 10 });
    return { handled, summary: await batchSummary(resource.batchId) };
  },
);
