"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { ROLES } from "@/lib/auth/permissions";
import { grantedTenantsScope } from "@/lib/auth/scope";
import { administratorOf } from "@/lib/auth/staff-administrator";
import { createStaffUser, generateStaffPassword } from "@/lib/auth/users";
import { because } from "@/lib/validation";

const input = z.object({
  // 254: the longest address mail can carry (RFC 5321), and far below the index's row limit.
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  name: z.string().trim().min(1).max(200),
  role: z.enum(ROLES),
  tenantIds: z.array(z.string().trim().min(1)).max(100),
  // Blank: a strong password is generated and shown once.
  password: z
    .string()
    .optional()
    .refine((p) => !p || p.length >= MIN_PASSWORD_LENGTH, because({ kind: "too-short", min: MIN_PASSWORD_LENGTH })),
});

export type CreateUserInput = z.input<typeof input>;

/** The new account's tenants must be the caller's own; its role at most the caller's (createStaffUser). */
export const createUser = defineAction(
  { name: "users.create", permission: "users:manage", input, scope: grantedTenantsScope((v: z.output<typeof input>) => v.tenantIds) },
  async (data, { staff }) => {
    const password = data.password || generateStaffPassword();
    const account = await createStaffUser({ ...data, password }, administratorOf(staff));
    // Only a generated password travels back: the admin already has the one they typed.
    return { id: account.id, email: account.email, generatedPassword: data.password ? null : password };
  },
);
