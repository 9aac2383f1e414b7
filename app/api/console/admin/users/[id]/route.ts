import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { staffUserScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { readStaffUser } from "@/lib/read/staff-user";
import { readModelResponse } from "@/lib/read/wire";

/** An id as staff_users holds them; anything else names no account (0: no row has it). */
const STAFF_ID = /^[1-9][0-9]{0,14}$/;

// One staff member's read model (lib/read/staff-user.ts). The scope rule admits only an account
// whose every product is within the caller's own; outside it, or missing, is not found (and audited).
export const GET = staffRoute(
  {
    name: "console.admin.user",
    permission: "users:manage",
    input: z.object({}),
    scope: staffUserScope(({ params }: RouteRequest<unknown>) => (STAFF_ID.test(String(params.id)) ? Number(params.id) : 0)),
  },
  async ({ staff, resource }) => {
    const model = await readStaffUser(staff, resource.id);
    if (!model) throw new AppError("not-found");
    return readModelResponse(model);
  },
);
