"use server";

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { previewBatch } from "@/lib/bulk/batches";
import { MAX_BATCH_ORDERS, parseOrderNumbers } from "@/lib/bulk/parse-order-numbers";
import { AppError } from "@/lib/errors";

const input = z.object({ tenant: z.string().min(1), text: z.string().max(1_000_000) });

/** The dry run: what repair would do to each listed order. Also hands out the batch's id. */
export const previewBulk = defineAction(
  { name: "bulk.preview", permission: "orders:bulk", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async ({ text }, { actor, resource }) => {
    const { orderNos, duplicates } = parseOrderNumbers(text);
    if (orderNos.length === 0) throw new AppError("invalid-input", { kind: "batch-empty" });
    if (orderNos.length > MAX_BATCH_ORDERS) throw new AppError("invalid-input", { kind: "batch-too-large", max: MAX_BATCH_ORDERS });
    const batchId = randomUUID();
    const rows = await previewBatch(resource.tenantId, orderNos);
    // Who looked at what a batch would do, before anyone ran it.
    await audit({
      actor,
      action: "bulk.previewed",
      tenantId: resource.tenantId,
      target: `bulk:${batchId}`,
      detail: { batchId, orders: rows.length, willApply: rows.filter((r) => r.willApply).length, duplicates },
    });
    return { batchId, duplicates, rows };
  },
);
