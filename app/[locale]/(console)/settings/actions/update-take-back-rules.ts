"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { endpointUrlAllowed } from "@/lib/settings/endpoint-url";
import { LINE_KINDS, RULES_FOR_KIND, ruleAllowed, TAKE_BACK_RULES } from "@/lib/orders/take-back";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { because } from "@/lib/validation";
import { settingsFormInput } from "./settings-input";

const rule = z.enum(TAKE_BACK_RULES, because({ kind: "invalid-choice", options: [...TAKE_BACK_RULES] }));

const input = settingsFormInput
  .extend({
    currency: rule,
    stamina: rule,
    cosmetic: rule,
    item: rule,
    /** Empty: no endpoint (every `revoke` take-back then fails until one is set). */
    revokeEndpointUrl: z
      .string()
      .trim()
      .max(2048, because({ kind: "too-long", max: 2048 }))
      .refine((v) => v === "" || endpointUrlAllowed(v), because({ kind: "endpoint-url" }))
      .transform((v) => (v === "" ? null : v)),
  })
  .superRefine((v, ctx) => {
    // Only a balance can go below zero: a cosmetic or an item has no balance to owe. Said on the
    // kind's own select, with the rules it may take — a refusal, never a 500 from the database.
    for (const kind of LINE_KINDS) {
      if (!ruleAllowed(kind, v[kind])) ctx.addIssue({ code: "custom", path: [kind], ...because({ kind: "invalid-choice", options: [...RULES_FOR_KIND[kind]] }) });
    }
  });

export type UpdateTakeBackRulesInput = z.input<typeof input>;

/** What a confirmed refund does to each kind of line's goods, and where the game's revoke endpoint is (issue 16). */
export const updateTakeBackRules = defineAction(
  { name: "settings.update-take-back-rules", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    const rules = { currency: v.currency, stamina: v.stamina, cosmetic: v.cosmetic, item: v.item };
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "take_back_rules", value: { rules, revokeEndpointUrl: v.revokeEndpointUrl } }, actor);
  },
);
