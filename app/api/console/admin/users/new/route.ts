import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readNewStaffUser } from "@/lib/read/new-staff-user";
import { readModelResponse } from "@/lib/read/wire";

// The create form's read model (lib/read/new-staff-user.ts): the products and roles the caller may hand out.
export const GET = staffRoute(
  { name: "console.admin.new-user", permission: "users:manage", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readNewStaffUser(staff)),
);
