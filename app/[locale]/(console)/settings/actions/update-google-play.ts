"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { tenantScope } from "@/lib/auth/scope";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { because } from "@/lib/validation";
import { settingsFormInput } from "./settings-input";

// A package name as Google Play allows it (segments of letters, digits and underscores, each starting
// with a letter); empty disconnects the tenant: every push is refused and nothing is polled. A
// connected tenant names the push subscription's audience and service account too — without them no
// push could be told from anyone's.
const input = settingsFormInput
  .extend({
    packageName: z
      .string()
      .trim()
      .max(150, because({ kind: "too-long", max: 150 }))
      .regex(/^([A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+)?$/, because({ kind: "invalid-format" })),
    pushAudience: z.string().trim().max(512, because({ kind: "too-long", max: 512 })),
    pushServiceAccount: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, because({ kind: "too-long", max: 254 }))
      .refine((v) => v === "" || z.email().safeParse(v).success, because({ kind: "invalid-email" })),
  })
  .superRefine((v, ctx) => {
    if (v.packageName === "") return;
    if (v.pushAudience === "") ctx.addIssue({ code: "custom", path: ["pushAudience"], ...because({ kind: "required" }) });
    if (v.pushServiceAccount === "") ctx.addIssue({ code: "custom", path: ["pushServiceAccount"], ...because({ kind: "required" }) });
  });

export type UpdateGooglePlayInput = z.input<typeof input>;

/** The Google Play app (package name) and the push subscription's identity (audience, service account) the tenant accepts. */
export const updateGooglePlay = defineAction(
  { name: "settings.update-google-play", permission: "settings:edit", input, scope: tenantScope((v: z.output<typeof input>) => v.tenant) },
  async (v, { actor, resource }) => {
    const value =
      v.packageName === ""
        ? { packageName: null, pushAudience: null, pushServiceAccount: null }
        : { packageName: v.packageName, pushAudience: v.pushAudience, pushServiceAccount: v.pushServiceAccount };
    return updateTenantSettings(resource.tenantId, v.expectedUpdatedAt, { field: "google_play", value }, actor);
  },
);
