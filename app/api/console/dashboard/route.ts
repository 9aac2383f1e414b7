import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readDashboard } from "@/lib/read/dashboard";
import { readModelResponse } from "@/lib/read/wire";

// The dashboard's counts (lib/read/dashboard.ts), for the products in the caller's scope; each
// product's 30-day series is read from ./daily.
export const GET = staffRoute(
  { name: "console.dashboard", permission: "orders:view", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readDashboard(staff)),
);
