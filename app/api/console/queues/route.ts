import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { CASE_FILTERS } from "@/lib/cases/filters";
import { readQueuesPage } from "@/lib/read/queues";
import { readModelResponse } from "@/lib/read/wire";

// The queues page's read model, which the page polls: stuck orders, the case queue (filtered: all,
// mine, unassigned, overdue) and refunds waiting too long, for the products in the caller's scope
// only, with what the case forms offer the caller.
export const GET = staffRoute(
  { name: "console.queues", permission: "orders:view", input: z.object({ cases: z.enum(CASE_FILTERS).default("all") }), scope: noResource },
  async ({ staff, input }) => readModelResponse(await readQueuesPage(staff, input.cases)),
);
