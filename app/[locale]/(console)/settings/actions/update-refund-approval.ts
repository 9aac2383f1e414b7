"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { parseMoney } from "@/lib/format";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { because } from "@/lib/validation";
import { settingsFormInput } from "./settings-input";

/** 1,000,000.00 in minor units: far above any game purchase, far below the column's limit. */
const MAX_AMOUNT = 100_000_000;

const input = settingsFormInput.extend({
  /** Typed as money ("128", "99.50"); stored as integer minor units, never through a float. */
  amount: z
    .string()
    .transform((text, ctx) => {
      const minor = parseMoney(text);
      if (minor === null) {
        ctx.addIssue({ code: "custom", ...because({ kind: "money-format" }) });
        return z.NEVER;
      }
      return minor;
    })
    .refine((minor) => minor > 0, because({ kind: "too-small", min: 0.01 }))
    .refine((minor) => minor <= MAX_AMOUNT, because({ kind: "money-too-large", max: MAX_AMOUNT, currency: null })),
});

export type UpdateRefundApprovalInput = z.input<typeof input>;

/** Refunds requested from the console above this amount wait for a manager's approval. */
export const updateRefundApproval = defineAction(
  { name: "settings.update-refund-approval", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "refund_approval_amount", value: v.amount }, actor);
  },
);
