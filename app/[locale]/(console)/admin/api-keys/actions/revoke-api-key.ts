"use server";

import { z } from "zod";
import { revokeApiKey } from "@/lib/api/keys";
import { defineAction } from "@/lib/auth/action";
import { apiKeyScope } from "@/lib/auth/scope";

const input = z.object({ prefix: z.string().regex(/^[a-z0-9]{12}$/) });

/** Revokes a key of a tenant of the caller's at once: its next call answers 401. */
export const revokeApiKeyAction = defineAction(
  { name: "apikeys.revoke", permission: "apikeys:manage", input, scope: apiKeyScope((v: z.output<typeof input>) => v.prefix) },
  async (_input, { actor, resource }) => {
    const { revoked } = await revokeApiKey(resource, actor);
    return { prefix: resource.prefix, revoked };
  },
);
