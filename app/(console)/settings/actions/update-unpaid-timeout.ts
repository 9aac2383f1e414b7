"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";
import { durationInput, UNPAID_TIMEOUT_BOUNDS } from "@/lib/settings/durations";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";

const input = z.object({
  tenant: z.string().min(1),
  expectedUpdatedAt: z.iso.datetime("The form is missing its version: reload the page."),
  timeout: durationInput("Unpaid timeout", UNPAID_TIMEOUT_BOUNDS),
});

export type UpdateUnpaidTimeoutInput = z.input<typeof input>;

/** How long an order may wait for payment before the timeout job closes it. */
export const updateUnpaidTimeout = defineAction(
  { name: "settings.update-unpaid-timeout", permission: "settings:edit", input },
  async (v, { staff, actor }) => {
    await requireTenantScope(staff, v.tenant, `settings:${v.tenant}`);
    const result = await updateTenantSettings(v.tenant, v.expectedUpdatedAt, { field: "unpaid_timeout_seconds", value: v.timeout }, actor);
    if (result.status === "saved") revalidatePath("/settings");
    return result;
  },
);
