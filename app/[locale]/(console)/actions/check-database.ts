"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { noResource } from "@/lib/auth/scope";
import { pingDatabase } from "@/lib/db/ping";

/**
 * Asked by the console's error pages: is the database reachable now? While it is not, the answer is
 * the `unavailable` error (lib/i18n/public-error.ts decides that), and the page keeps waiting for it.
 */
export const checkDatabase = defineAction(
  { name: "console.check-database", permission: "profile:edit", input: z.object({}), scope: noResource },
  async () => {
    await pingDatabase();
    return { reachable: true };
  },
);
