"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { ROLES } from "@/lib/auth/permissions";
import { createStaffUser, generateStaffPassword } from "@/lib/auth/users";

const input = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address.")),
  name: z.string().trim().min(1, "Enter a name.").max(200, "Keep the name under 200 characters."),
  role: z.enum(ROLES, "Choose a role."),
  tenantIds: z.array(z.string().trim().min(1)).max(100),
  // Blank: a strong password is generated and shown once.
  password: z
    .string()
    .optional()
    .refine((p) => !p || p.length >= MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters, or leave it blank to generate one.`),
});

export type CreateUserInput = z.input<typeof input>;

export const createUser = defineAction({ name: "users.create", permission: "users:manage", input }, async (data, { actor }) => {
  const password = data.password || generateStaffPassword();
  const account = await createStaffUser({ ...data, password }, actor);
  revalidatePath("/admin/users");
  // Only a generated password travels back: the admin already has the one they typed.
  return { id: account.id, email: account.email, generatedPassword: data.password ? null : password };
});
