"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey } from "@/lib/api/keys";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";

const input = z.object({
  tenant: z.string().min(1),
  name: z
    .string()
    .trim()
    .min(3, "Name the key after who uses it, e.g. alipay-callbacks.")
    .max(64)
    .regex(/^[a-z0-9][a-z0-9._-]*$/, "Lower-case letters, digits, dot, dash and underscore."),
});

/** Creates a key; the full key is returned this once and never stored. */
export const createApiKeyAction = defineAction({ name: "apikeys.create", permission: "apikeys:manage", input }, async (v, { staff, actor }) => {
  await requireTenantScope(staff, v.tenant, `apikeys:${v.tenant}`);
  const { key, summary } = await createApiKey({ tenantId: v.tenant, name: v.name, actor });
  revalidatePath("/admin/api-keys");
  return { key, prefix: summary.prefix };
});
