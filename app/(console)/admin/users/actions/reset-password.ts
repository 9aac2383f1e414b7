"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { generateStaffPassword, resetStaffPassword } from "@/lib/auth/users";

const input = z.object({
  id: z.coerce.number().int().positive(),
  // Blank: a strong password is generated and shown once.
  password: z
    .string()
    .optional()
    .refine((p) => !p || p.length >= MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters, or leave it blank to generate one.`),
});

export type ResetPasswordInput = z.input<typeof input>;

export const resetPassword = defineAction(
  { name: "users.reset-password", permission: "users:manage", input },
  async ({ id, password }, { actor }) => {
    const newPassword = password || generateStaffPassword();
    const account = await resetStaffPassword(id, newPassword, actor);
    revalidatePath("/admin/users");
    revalidatePath(`/admin/users/${id}`);
    // Only a generated password travels back: the admin already has the one they typed.
    return { email: account.email, generatedPassword: password ? null : newPassword };
  },
);
