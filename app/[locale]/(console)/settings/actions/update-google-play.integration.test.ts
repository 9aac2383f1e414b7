import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateGooglePlay } from "./update-google-play";

useFreshDatabase();

const TENANT = "google-settings";
const current = async () => (await listTenantSettings([TENANT]))[0]!;
const CONNECTED = {
  packageName: "com.example.game",
  pushAudience: "https://console.example.com/api/v1/stores/google/notifications/google-settings",
  pushServiceAccount: "play-push@example-project.iam.gserviceaccount.com",
};
const NONE = { packageName: null, pushAudience: null, pushServiceAccount: null };

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
});

describe("settings: the Google Play app", () => {
  it("connects a package with its push audience and service account, audited with before and after; empty disconnects; bad values are refused", async () => {
    signInAs("manager", [TENANT], { email: "manager@example.com" });
    const before = await current();
    expect(before).toMatchObject({ googlePackageName: null, googlePushAudience: null, googlePushServiceAccount: null });

    const saved = await updateGooglePlay({ tenant: TENANT, expectedUpdatedAt: before.updatedAt, ...CONNECTED, pushServiceAccount: " Play-Push@example-project.iam.gserviceaccount.com " });
    expect(saved).toMatchObject({ ok: true, data: { status: "saved", before: NONE, after: CONNECTED } });
    const connected = await current();
    expect(connected).toMatchObject({ googlePackageName: CONNECTED.packageName, googlePushAudience: CONNECTED.pushAudience, googlePushServiceAccount: CONNECTED.pushServiceAccount });

    const bad = await updateGooglePlay({ tenant: TENANT, expectedUpdatedAt: connected.updatedAt, packageName: "not a package", pushAudience: "", pushServiceAccount: "nobody" });
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    // A package without the push subscription's identity could never accept a push: both are required.
    const missing = await updateGooglePlay({ tenant: TENANT, expectedUpdatedAt: connected.updatedAt, packageName: "com.example.game", pushAudience: "", pushServiceAccount: "" });
    expect(missing).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await current()).toMatchObject({ updatedAt: connected.updatedAt });

    await updateGooglePlay({ tenant: TENANT, expectedUpdatedAt: connected.updatedAt, packageName: "", pushAudience: "ignored", pushServiceAccount: "" });
    expect(await current()).toMatchObject({ googlePackageName: null, googlePushAudience: null, googlePushServiceAccount: null });

    const { rows } = await getPool().query(`SELECT actor, detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id`, [`tenant:${TENANT}`]);
    expect(rows).toEqual([
      { actor: "staff:manager@example.com", detail: { field: "google_play", before: NONE, after: CONNECTED } },
      { actor: "staff:manager@example.com", detail: { field: "google_play", before: CONNECTED, after: NONE } },
    ]);
  });
});
