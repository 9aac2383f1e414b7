"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { revokeApiKey } from "@/lib/api/keys";
import { defineAction } from "@/lib/auth/action";

const input = z.object({ prefix: z.string().regex(/^[a-z0-9]{12}$/) });

/** Revokes a key at once: its next call answers 401. */
export const revokeApiKeyAction = defineAction({ name: "apikeys.revoke", permission: "apikeys:manage", input }, async ({ prefix }, { staff, actor }) => {
  await revokeApiKey({ tenantIds: staff.tenantIds, prefix, actor });
  revalidatePath("/admin/api-keys");
  return { prefix };
});
