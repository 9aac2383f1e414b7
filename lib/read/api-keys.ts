import "server-only";
import { listApiKeys, type ApiKeySummary } from "@/lib/api/keys";
import type { Staff } from "@/lib/auth/staff";

/** A key as the page lists it: named by its public prefix. */
export type ApiKeyRow = Pick<ApiKeySummary, "tenantId" | "name" | "prefix" | "createdBy" | "createdAt" | "lastUsedAt" | "revokedAt">;

/**
 * The API keys page's read model: the keys of the viewer's products, and the products a key may be
 * made for. Never a secret nor its hash: a new key's secret is shown once, from the create
 * action's answer. Fields are picked one by one, so a column added to api_keys stays on the server.
 */
export interface ApiKeysModel {
  readonly tenants: readonly string[];
  readonly keys: readonly ApiKeyRow[];
}

export async function readApiKeys(staff: Staff): Promise<ApiKeysModel> {
  const keys = await listApiKeys(staff.tenantIds);
  return {
    tenants: staff.tenantIds,
    keys: keys.map(({ tenantId, name, prefix, createdBy, createdAt, lastUsedAt, revokedAt }) => ({ tenantId, name, prefix, createdBy, createdAt, lastUsedAt, revokedAt })),
  };
}
