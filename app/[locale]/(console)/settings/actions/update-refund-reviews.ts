"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { settingsFormInput } from "./settings-input";

const input = settingsFormInput.extend({ autoSend: z.boolean() });

/** Whether the worker answers the tenant's store refund reviews itself, shortly before their deadline. */
export const updateRefundReviews = defineAction(
  { name: "settings.update-refund-reviews", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "refund_review_auto_send", value: v.autoSend }, actor);
  },
);
