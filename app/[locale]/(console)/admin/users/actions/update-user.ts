"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { ROLES } from "@/lib/auth/permissions";
import { staffUserScope } from "@/lib/auth/scope";
import { administratorOf } from "@/lib/auth/staff-administrator";
import { updateStaffUser } from "@/lib/auth/users";

const input = z.object({
  id: z.coerce.number().int().positive(),
  name: z.string().trim().min(1).max(200).optional(),
  role: z.enum(ROLES).optional(),
  tenantIds: z.array(z.string().trim().min(1)).max(100).optional(),
});

export type UpdateUserInput = z.input<typeof input>;

/** Only accounts the caller administers; new tenants and role within the caller's own (updateStaffUser). */
export const updateUser = defineAction(
  { name: "users.update", permission: "users:manage", input, scope: staffUserScope((v: z.output<typeof input>) => v.id) },
  async ({ id: _id, ...changes }, { staff, resource }) => {
    const { account, changed } = await updateStaffUser(resource.id, changes, administratorOf(staff));
    return { email: account.email, changed };
  },
);
