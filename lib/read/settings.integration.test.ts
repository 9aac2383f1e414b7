import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { updateWebhook } from "@/app/[locale]/(console)/settings/actions/update-webhook";
import { GET } from "@/app/api/console/settings/route";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { SettingsModel } from "./settings";

// The settings page's read model through its route: the caller's products only (a product named
// outside them is a 404, with nothing read), managers only, no secret on the wire, and the version a
// save moves (what a stale form is refused by).

useFreshDatabase();

const WEBHOOK = "https://game.example.com/orderops/webhook";

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("st-home"));
  await ensureTenant(pool, tenantSpec("st-other"));
  // Store connections the page shows by name; what signs the webhooks, it never shows.
  await pool.query(`UPDATE tenant_settings SET webhook_url = $2, apple_bundle_id = 'com.example.home', apple_environment = 'Sandbox' WHERE tenant_id = $1`, [
    "st-home",
    WEBHOOK,
  ]);
});

async function settings(query = ""): Promise<{ status: number; model: SettingsModel | null; body: string }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/settings${query}`), { params: Promise.resolve({}) });
  const body = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<SettingsModel>(body) : null, body };
}

describe("GET /api/console/settings", () => {
  it("reads the caller's products only, with what the forms show", async () => {
    signInAs("manager", ["st-home"]);
    const { status, model, body } = await settings();
    expect(status).toBe(200);
    expect(model!.tenants.map((t) => t.tenantId)).toEqual(["st-home"]);
    expect(model!.tenants[0]).toMatchObject({ webhookUrl: WEBHOOK, appleBundleId: "com.example.home", appleEnvironment: "Sandbox", lastChange: null });
    expect(model!.tenants[0]!.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(body).not.toContain("st-other");
  });

  it("never carries a signing secret", async () => {
    signInAs("manager", ["st-home", "st-other"]);
    const { body } = await settings();
    const { rows } = await getPool().query<{ secret: string }>(`SELECT signing_secret AS secret FROM tenant_settings WHERE tenant_id = ANY($1)`, [["st-home", "st-other"]]);
    expect(rows).toHaveLength(2);
    for (const { secret } of rows) expect(body).not.toContain(secret);
    expect(body).not.toMatch(/secret/i);
  });

  it("reads the one product `tenant` names, when it is the caller's; another product or none at all is a 404", async () => {
    signInAs("manager", ["st-home", "st-other"]);
    expect((await settings("?tenant=st-other")).model!.tenants.map((t) => t.tenantId)).toEqual(["st-other"]);
    signInAs("manager", ["st-home"]);
    for (const tenant of ["st-other", "nowhere"]) {
      const { status, body } = await settings(`?tenant=${tenant}`);
      expect(status, tenant).toBe(404);
      expect(body).not.toContain("updatedAt");
    }
  });

  it("is for managers: an agent and ops are refused", async () => {
    for (const role of ["agent", "ops"] as const) {
      signInAs(role, ["st-home"]);
      expect((await settings()).status, role).toBe(403);
    }
  });

  it("moves the version on a save: the form that still holds the old one is refused as stale", async () => {
    signInAs("manager", ["st-home"], { email: "manager@example.com" });
    const before = (await settings()).model!.tenants[0]!;
    expect(await updateWebhook({ tenant: "st-home", expectedUpdatedAt: before.updatedAt, webhookUrl: `${WEBHOOK}/v2` })).toMatchObject({ ok: true, data: { status: "saved" } });
    const after = (await settings()).model!.tenants[0]!;
    expect(after.webhookUrl).toBe(`${WEBHOOK}/v2`);
    expect(after.updatedAt).not.toBe(before.updatedAt);
    expect(after.lastChange).toMatchObject({ actor: "staff:manager@example.com" });
    expect(after.lastChange!.at).toBeInstanceOf(Date);
    expect(await updateWebhook({ tenant: "st-home", expectedUpdatedAt: before.updatedAt, webhookUrl: WEBHOOK })).toMatchObject({ ok: false, error: { code: "conflict" } });
  });
});
