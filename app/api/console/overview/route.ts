import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { stateCounts } from "@/lib/orders/queries/state-counts";

// Live figures for the overview page: orders per state, per tenant in the caller's scope.
export const GET = staffRoute(
  { name: "console.overview", permission: "orders:view", input: z.object({}), scope: noResource },
  async ({ staff }) => ({ tenants: await stateCounts(staff.tenantIds) }),
);
