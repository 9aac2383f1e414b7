"use server";

import type { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { durationInput, UNPAID_TIMEOUT_BOUNDS } from "@/lib/settings/durations";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { settingsFormInput } from "./settings-input";

const input = settingsFormInput.extend({ timeout: durationInput(UNPAID_TIMEOUT_BOUNDS) });

export type UpdateUnpaidTimeoutInput = z.input<typeof input>;

/** How long an order may wait for payment before the timeout job closes it. */
export const updateUnpaidTimeout = defineAction(
  { name: "settings.update-unpaid-timeout", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "unpaid_timeout_seconds", value: v.timeout }, actor);
  },
);
