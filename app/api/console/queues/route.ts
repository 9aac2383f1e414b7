import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { CASE_FILTERS } from "@/lib/cases/filters";
import { loadQueues } from "@/lib/read/queues";

// The queues page polls this: stuck orders, the case queue (filtered: all, mine, unassigned,
// overdue) and refunds waiting too long, for the products in the caller's scope only.
export const GET = staffRoute(
  { name: "console.queues", permission: "orders:view", input: z.object({ cases: z.enum(CASE_FILTERS).default("all") }), scope: noResource },
  async ({ staff, actor, input }) => loadQueues(staff.tenantIds, { viewer: { actor, role: staff.role }, caseFilter: input.cases }),
);
