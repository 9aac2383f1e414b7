"use server";

import type { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { durationInput, DWELL_BOUNDS } from "@/lib/settings/durations";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { settingsFormInput } from "./settings-input";

const input = settingsFormInput.extend({
  created: durationInput(DWELL_BOUNDS.created),
  paid: durationInput(DWELL_BOUNDS.paid),
  delivering: durationInput(DWELL_BOUNDS.delivering),
  refunding: durationInput(DWELL_BOUNDS.refunding),
});

export type UpdateDwellInput = z.input<typeof input>;

/** How long an order may stay in each state before it counts as stuck (queues, dashboard). */
export const updateDwell = defineAction(
  { name: "settings.update-dwell", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(
      resource.tenantId,
      v.expectedUpdatedAt,
      { field: "max_dwell_seconds", value: { created: v.created, paid: v.paid, delivering: v.delivering, refunding: v.refunding } },
      actor,
    );
  },
);
