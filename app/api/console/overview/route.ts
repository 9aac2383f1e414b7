import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readOverview } from "@/lib/read/overview";
import { readModelResponse } from "@/lib/read/wire";

// The overview's read model (lib/read/overview.ts), for the products in the caller's scope.
export const GET = staffRoute(
  { name: "console.overview", permission: "orders:view", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readOverview(staff)),
);
