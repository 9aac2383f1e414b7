"use server";

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { instant } from "@/lib/audit/queries/filters";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { previewResend } from "@/lib/deliveries/bulk-resend";

const input = z.object({ tenant: z.string().trim().min(1).max(64), since: instant });

/** How many dead webhook messages of a product since a time a bulk resend would send, with a sample. Also hands out the batch's id. */
export const previewBulkResend = defineAction(
  { name: "deliveries.bulk-resend-preview", permission: "deliveries:send", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    const batchId = randomUUID();
    const preview = await previewResend({ tenantId: resource.tenantId, since: v.since });
    await audit({
      actor,
      action: "bulk.previewed",
      tenantId: resource.tenantId,
      target: `bulk:${batchId}`,
      detail: { batchId, kind: "resend", since: v.since.toISOString(), messages: preview.count },
    });
    return { batchId, since: v.since.toISOString(), ...preview };
  },
);
