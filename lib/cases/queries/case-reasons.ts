import "server-only";
import { getPrisma } from "@/lib/db/prisma";
import { storedCannedReasons } from "@/lib/settings/canned-reasons";
import { caseCannedReasons, type CaseCannedReasons } from "@/lib/settings/reason-kinds";

/** Per product of the scope, the canned reasons its case dialogs offer (settings → canned reasons). */
export async function loadCaseReasons(tenants: readonly string[]): Promise<Readonly<Record<string, CaseCannedReasons>>> {
  if (tenants.length === 0) return {};
  const settings = await getPrisma().tenantSettings.findMany({ where: { tenantId: { in: [...new Set(tenants)] } }, select: { tenantId: true, cannedReasons: true } });
  return Object.fromEntries(settings.map((s) => [s.tenantId, caseCannedReasons(storedCannedReasons.parse(s.cannedReasons))]));
}
