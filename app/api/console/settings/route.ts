import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { optionalTenantScope } from "@/lib/auth/scope";
import { readSettings } from "@/lib/read/settings";
import { readModelResponse } from "@/lib/read/wire";

const input = z.object({ tenant: z.string().min(1).max(64).optional() });

// The settings page's data (lib/read/settings.ts): every product of the caller's, or the one named
// by `tenant` — which must be one of them, else 404 with nothing read (and the attempt audited).
export const GET = staffRoute(
  { name: "console.settings", permission: "settings:edit", input, scope: optionalTenantScope((r: RouteRequest<z.output<typeof input>>) => r.input.tenant) },
  async ({ staff, resource }) => readModelResponse(await readSettings(staff, resource.tenantId)),
);
