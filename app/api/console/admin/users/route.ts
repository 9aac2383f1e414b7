import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { noResource } from "@/lib/auth/scope";
import { readStaffList } from "@/lib/read/staff";
import { readModelResponse } from "@/lib/read/wire";

// The staff list's read model (lib/read/staff.ts): the accounts the caller administers.
export const GET = staffRoute(
  { name: "console.admin.users", permission: "users:manage", input: z.object({}), scope: noResource },
  async ({ staff }) => readModelResponse(await readStaffList(staff)),
);
