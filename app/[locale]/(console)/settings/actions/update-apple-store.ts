"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { ENVIRONMENTS } from "@/lib/settings/apple-environments";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { because } from "@/lib/validation";
import { settingsFormInput } from "./settings-input";

// A bundle id as App Store Connect allows it (reverse-DNS letters, digits, dots and hyphens); empty
// disconnects the tenant, and then every notification for it is refused.
const input = settingsFormInput.extend({
  bundleId: z
    .string()
    .trim()
    .max(155, because({ kind: "too-long", max: 155 }))
    .regex(/^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)?$/, because({ kind: "invalid-format" })),
  environment: z.enum(ENVIRONMENTS, because({ kind: "invalid-choice", options: [...ENVIRONMENTS] })),
});

export type UpdateAppleStoreInput = z.input<typeof input>;

/** The App Store app (bundle id and environment) whose signed notifications the tenant accepts. */
export const updateAppleStore = defineAction(
  { name: "settings.update-apple-store", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    const value = v.bundleId === "" ? { bundleId: null, environment: null } : { bundleId: v.bundleId, environment: v.environment };
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "apple_store", value }, actor);
  },
);
