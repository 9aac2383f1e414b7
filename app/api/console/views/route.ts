import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readSidebarViews } from "@/lib/read/saved-views";
import { readModelResponse } from "@/lib/read/wire";

// The navigation's saved views (lib/read/saved-views.ts): the caller's own and those shared with their products.
export const GET = staffRoute(
  { name: "console.saved-views", permission: "orders:view", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readSidebarViews(staff)),
);
