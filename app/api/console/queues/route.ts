import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { loadQueues } from "@/lib/orders/queries/queues";

// The queues page polls this: stuck orders, open exceptions and refunds waiting too long, for the
// products in the caller's scope only.
export const GET = staffRoute(
  { name: "console.queues", permission: "orders:view", input: z.object({}), scope: noResource },
  async ({ staff }) => loadQueues(staff.tenantIds),
);
