import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readDeliveries } from "@/lib/read/deliveries";
import { readModelResponse } from "@/lib/read/wire";

// The deliveries list's read model (lib/read/deliveries.ts) over the caller's own products. The page
// hands over its query string whole, as `query`; a bad filter is dropped and named by the model.
export const GET = staffRoute(
  { name: "console.deliveries", permission: "deliveries:view", input: z.object({ query: z.string().max(4_000).default("") }), scope: noResource },
  async ({ staff, input }) => readModelResponse(await readDeliveries(staff, input.query)),
);
