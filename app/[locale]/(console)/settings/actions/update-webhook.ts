"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { endpointUrlAllowed } from "@/lib/settings/endpoint-url";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { because } from "@/lib/validation";
import { settingsFormInput } from "./settings-input";

const input = settingsFormInput.extend({
  /**
   * Where the outbox relay posts the product's signed events (refund requests among them). Empty:
   * no webhook, and nothing is sent. The same address rule as the revoke endpoint: the relay signs
   * its posts with the product's secret, so they never go out in clear.
   */
  webhookUrl: z
    .string()
    .trim()
    .max(2048, because({ kind: "too-long", max: 2048 }))
    .refine((v) => v === "" || endpointUrlAllowed(v), because({ kind: "webhook-url" }))
    .transform((v) => (v === "" ? null : v)),
});

export type UpdateWebhookInput = z.input<typeof input>;

/** The product's webhook: where its signed order events go (issue 29: a refund nobody could send). */
export const updateWebhook = defineAction(
  { name: "settings.update-webhook", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "webhook_url", value: v.webhookUrl }, actor);
  },
);
