"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { ROLES } from "@/lib/auth/permissions";
import { updateStaffUser } from "@/lib/auth/users";

const input = z.object({
  id: z.coerce.number().int().positive(),
  name: z.string().trim().min(1, "Enter a name.").max(200, "Keep the name under 200 characters.").optional(),
  role: z.enum(ROLES, "Choose a role.").optional(),
  tenantIds: z.array(z.string().trim().min(1)).max(100).optional(),
});

export type UpdateUserInput = z.input<typeof input>;

export const updateUser = defineAction({ name: "users.update", permission: "users:manage", input }, async ({ id, ...changes }, { actor }) => {
  const { account, changed } = await updateStaffUser(id, changes, actor);
  if (changed.length > 0) {
    revalidatePath("/admin/users");
    revalidatePath(`/admin/users/${id}`);
  }
  return { email: account.email, changed };
});
