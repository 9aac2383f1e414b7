"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";
import { durationInput, DWELL_BOUNDS } from "@/lib/settings/durations";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";

const input = z.object({
  tenant: z.string().min(1),
  /** The settings row's updated_at as the form rendered it: a newer row means someone else saved. */
  expectedUpdatedAt: z.iso.datetime("The form is missing its version: reload the page."),
  created: durationInput("Max time in created", DWELL_BOUNDS.created),
  paid: durationInput("Max time in paid", DWELL_BOUNDS.paid),
  delivering: durationInput("Max time in delivering", DWELL_BOUNDS.delivering),
  refunding: durationInput("Max time in refunding", DWELL_BOUNDS.refunding),
});

export type UpdateDwellInput = z.input<typeof input>;

/** How long an order may stay in each state before it counts as stuck (queues, dashboard). */
export const updateDwell = defineAction({ name: "settings.update-dwell", permission: "settings:edit", input }, async (v, { staff, actor }) => {
  await requireTenantScope(staff, v.tenant, `settings:${v.tenant}`);
  const result = await updateTenantSettings(
    v.tenant,
    v.expectedUpdatedAt,
    { field: "max_dwell_seconds", value: { created: v.created, paid: v.paid, delivering: v.delivering, refunding: v.refunding } },
    actor,
  );
  if (result.status === "saved") revalidatePath("/settings");
  return result;
});
