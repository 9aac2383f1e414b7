"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";
import { parseMoney } from "@/lib/format";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";

/** 1,000,000.00 in minor units: far above any game purchase, far below the column's limit. */
const MAX_AMOUNT = 100_000_000;

const input = z.object({
  tenant: z.string().min(1),
  expectedUpdatedAt: z.iso.datetime("The form is missing its version: reload the page."),
  /** Typed as money ("128", "99.50"); stored as integer minor units, never through a float. */
  amount: z
    .string("Enter an amount like 100 or 99.50.")
    .transform((text, ctx) => {
      const minor = parseMoney(text);
      if (minor === null) {
        ctx.addIssue({ code: "custom", message: "Enter an amount like 100 or 99.50 (at most two decimals, no currency sign)." });
        return z.NEVER;
      }
      return minor;
    })
    .refine((minor) => minor > 0, "The approval amount must be more than 0.")
    .refine((minor) => minor <= MAX_AMOUNT, "The approval amount can be at most 1,000,000.00."),
});

export type UpdateRefundApprovalInput = z.input<typeof input>;

/** Refunds requested from the console above this amount wait for a manager's approval. */
export const updateRefundApproval = defineAction(
  { name: "settings.update-refund-approval", permission: "settings:edit", input },
  async (v, { staff, actor }) => {
    await requireTenantScope(staff, v.tenant, `settings:${v.tenant}`);
    const result = await updateTenantSettings(v.tenant, v.expectedUpdatedAt, { field: "refund_approval_amount", value: v.amount }, actor);
    if (result.status === "saved") revalidatePath("/settings");
    return result;
  },
);
