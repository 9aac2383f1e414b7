import { z } from "zod";
import { because } from "@/lib/validation";

/** Every settings form names its tenant and the row version it rendered (a newer row means someone else saved). */
export const settingsFormInput = z.object({
  tenant: z.string().min(1),
  expectedUpdatedAt: z.iso.datetime(because({ kind: "form-version-missing" })),
});
