import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateAppleStore } from "./update-apple-store";

useFreshDatabase();

const TENANT = "apple-settings";
const current = async () => (await listTenantSettings([TENANT]))[0]!;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

describe("settings: the App Store app", () => {
  it("connects a bundle id and environment, audited with before and after; empty disconnects; a bad id is refused", async () => {
    signInAs("manager", [TENANT], { email: "manager@example.com" });
    const before = await current();
    expect(before).toMatchObject({ appleBundleId: null, appleEnvironment: null });

    const saved = await updateAppleStore({ tenant: TENANT, expectedUpdatedAt: before.updatedAt, bundleId: " com.example.game ", environment: "Sandbox" });
    expect(saved).toMatchObject({ ok: true, data: { status: "saved", before: { bundleId: null, environment: null }, after: { bundleId: "com.example.game", environment: "Sandbox" } } });
    const connected = await current();
    expect(connected).toMatchObject({ appleBundleId: "com.example.game", appleEnvironment: "Sandbox" });

    const bad = await updateAppleStore({ tenant: TENANT, expectedUpdatedAt: connected.updatedAt, bundleId: "not a bundle id", environment: "Production" });
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid-input" } });

    await updateAppleStore({ tenant: TENANT, expectedUpdatedAt: connected.updatedAt, bundleId: "", environment: "Production" });
    expect(await current()).toMatchObject({ appleBundleId: null, appleEnvironment: null });

    const { rows } = await getPool().query(`SELECT actor, detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id`, [`tenant:${TENANT}`]);
    expect(rows).toEqual([
      { actor: "staff:manager@example.com", detail: { field: "apple_store", before: { bundleId: null, environment: null }, after: { bundleId: "com.example.game", environment: "Sandbox" } } },
      { actor: "staff:manager@example.com", detail: { field: "apple_store", before: { bundleId: "com.example.game", environment: "Sandbox" }, after: { bundleId: null, environment: null } } },
    ]);
  });
});
