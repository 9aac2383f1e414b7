import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { tenantScope } from "@/lib/auth/scope";
import { readDashboardDaily } from "@/lib/read/dashboard";
import { readModelResponse } from "@/lib/read/wire";

const input = z.object({ tenant: z.string().min(1) });

// One product's lost orders and refunds per day over 30 days, for the dashboard's charts: a product
// outside the caller's scope is not found, and nothing of it is read.
export const GET = staffRoute(
  { name: "console.dashboard-daily", permission: "orders:view", input, scope: tenantScope((r: RouteRequest<z.output<typeof input>>) => r.input.tenant) },
  async ({ resource }) => readModelResponse(await readDashboardDaily(resource.tenantId)),
);
