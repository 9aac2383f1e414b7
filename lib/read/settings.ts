import "server-only";
import type { Staff } from "@/lib/auth/staff";
import { listTenantSettings, type TenantSettingsView } from "@/lib/settings/tenant-settings";

/**
 * The settings page's read model: each product's settings, as its forms show them, with the row's
 * version each form sends back. Secrets never travel here: the webhook signing secret (and any store
 * key) is not a field of TenantSettingsView — the page names the webhook's address, never what signs it.
 */
export interface SettingsModel {
  readonly tenants: readonly TenantSettingsView[];
}

/** The settings of one product of the caller's (already admitted by the route's scope rule), or of all of them. */
export async function readSettings(staff: Staff, tenantId: string | null): Promise<SettingsModel> {
  return { tenants: await listTenantSettings(tenantId === null ? staff.tenantIds : [tenantId]) };
}
