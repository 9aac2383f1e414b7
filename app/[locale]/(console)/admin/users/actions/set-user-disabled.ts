"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { staffUserScope } from "@/lib/auth/scope";
import { administratorOf } from "@/lib/auth/staff-administrator";
import { setStaffDisabled } from "@/lib/auth/users";

const input = z.object({
  id: z.coerce.number().int().positive(),
  disabled: z.boolean(),
});

export type SetUserDisabledInput = z.input<typeof input>;

export const setUserDisabled = defineAction(
  { name: "users.set-disabled", permission: "users:manage", input, scope: staffUserScope((v: z.output<typeof input>) => v.id) },
  async ({ disabled }, { staff, resource }) => {
    const { account, changed } = await setStaffDisabled(resource.id, disabled, administratorOf(staff));
    return { email: account.email, disabled: account.disabledAt !== null, changed };
  },
);
