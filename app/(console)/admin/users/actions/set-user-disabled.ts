"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { setStaffDisabled } from "@/lib/auth/users";

const input = z.object({
  id: z.coerce.number().int().positive(),
  disabled: z.boolean(),
});

export type SetUserDisabledInput = z.input<typeof input>;

export const setUserDisabled = defineAction(
  { name: "users.set-disabled", permission: "users:manage", input },
  async ({ id, disabled }, { actor }) => {
    const { account, changed } = await setStaffDisabled(id, disabled, actor);
    if (changed) {
      revalidatePath("/admin/users");
      revalidatePath(`/admin/users/${id}`);
    }
    return { email: account.email, disabled: account.disabledAt !== null, changed };
  },
);
