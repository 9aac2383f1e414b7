"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { settingsFormInput } from "./settings-input";

const input = settingsFormInput.extend({
  /** A whole percentage, 1 to 100, as typed ("30"); empty turns the watch list off. */
  percent: z
    .string()
    .trim()
    .transform((text) => (text === "" ? null : Number(text)))
    .pipe(z.number().int().min(1).max(100).nullable()),
});

export type UpdateRefundWatchInput = z.input<typeof input>;

/** Players whose refunded share of spend is at or above this percentage are on the refund watch list (issue 16). */
export const updateRefundWatch = defineAction(
  { name: "settings.update-refund-watch", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "refund_watch_percent", value: v.percent }, actor);
  },
);
