"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { EXCEPTION_KINDS, type ExceptionKind } from "@/lib/orders/types";
import { CASE_SLA_BOUNDS, durationInput } from "@/lib/settings/durations";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { settingsFormInput } from "./settings-input";

const input = settingsFormInput.extend({
  sla: z.object(Object.fromEntries(EXCEPTION_KINDS.map((kind) => [kind, durationInput(CASE_SLA_BOUNDS)])) as Record<ExceptionKind, ReturnType<typeof durationInput>>),
});

export type UpdateCaseSlaInput = z.input<typeof input>;

/** How long each kind of case may wait before it is overdue (the queue, the overview). */
export const updateCaseSla = defineAction(
  { name: "settings.update-case-sla", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "case_sla_seconds", value: v.sla }, actor);
  },
);
