"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { CANNED_REASON_KEYS, cannedReasonsText, type CannedReasonKey, type CannedReasons } from "@/lib/settings/canned-reasons";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { settingsFormInput } from "./settings-input";

// One textarea per event, named after it: a problem with a line reports under that event's field.
const input = settingsFormInput.extend(
  Object.fromEntries(CANNED_REASON_KEYS.map((event) => [event, cannedReasonsText.optional()])) as Record<CannedReasonKey, z.ZodOptional<typeof cannedReasonsText>>,
);

export type UpdateCannedReasonsInput = z.input<typeof input>;

/** The reasons each event form of the product offers to pick from (free text stays allowed). */
export const updateCannedReasons = defineAction(
  { name: "settings.update-canned-reasons", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    const value: CannedReasons = Object.fromEntries(CANNED_REASON_KEYS.flatMap((event) => (v[event]?.length ? [[event, v[event]]] : [])));
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "canned_reasons", value }, actor);
  },
);
