"use server";

import { z } from "zod";
import { createApiKey } from "@/lib/api/keys";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { because } from "@/lib/validation";

const input = z.object({
  tenant: z.string().min(1),
  name: z
    .string()
    .trim()
    .min(3)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9._-]*$/, because({ kind: "key-name-format" })),
});

/** Creates a key for a tenant of the caller's; the full key is returned this once and never stored. */
export const createApiKeyAction = defineAction(
  { name: "apikeys.create", permission: "apikeys:manage", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async ({ name }, { actor, resource }) => {
    const { key, summary } = await createApiKey({ tenantId: resource.tenantId, name, actor });
    return { key, prefix: summary.prefix };
  },
);
