"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { staffUserScope } from "@/lib/auth/scope";
import { administratorOf } from "@/lib/auth/staff-administrator";
import { generateStaffPassword, resetStaffPassword } from "@/lib/auth/users";
import { because } from "@/lib/validation";

const input = z.object({
  id: z.coerce.number().int().positive(),
  // Blank: a strong password is generated and shown once.
  password: z
    .string()
    .optional()
    .refine((p) => !p || p.length >= MIN_PASSWORD_LENGTH, because({ kind: "too-short", min: MIN_PASSWORD_LENGTH })),
});

export type ResetPasswordInput = z.input<typeof input>;

export const resetPassword = defineAction(
  { name: "users.reset-password", permission: "users:manage", input, scope: staffUserScope((v: z.output<typeof input>) => v.id) },
  async ({ password }, { staff, resource }) => {
    const newPassword = password || generateStaffPassword();
    const account = await resetStaffPassword(resource.id, newPassword, administratorOf(staff));
    // Only a generated password travels back: the admin already has the one they typed.
    return { email: account.email, generatedPassword: password ? null : newPassword };
  },
);
