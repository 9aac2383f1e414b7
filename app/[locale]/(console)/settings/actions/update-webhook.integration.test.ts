import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { updateWebhook } from "./update-webhook";

useFreshDatabase();

const TENANT = "webhook-settings";
const URL_A = "https://game.example.com/orderops/webhook";
const current = async () => (await listTenantSettings([TENANT]))[0]!;
const auditRows = async () =>
  (await getPool().query(`SELECT actor, detail FROM audit_events WHERE action = 'settings.updated' AND target = $1 ORDER BY id`, [`tenant:${TENANT}`])).rows;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT));
  // A product without a webhook: what a case about a refund that never left points here to fix.
  await getPool().query(`UPDATE tenant_settings SET webhook_url = NULL WHERE tenant_id = $1`, [TENANT]);
});

describe("settings: the product's webhook", () => {
  it("is set to an https address, changed, and emptied to clear it, each save audited with before and after", async () => {
    signInAs("manager", [TENANT], { email: "manager@example.com" });
    const none = await current();
    expect(none.webhookUrl).toBeNull();

    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: none.updatedAt, webhookUrl: ` ${URL_A} ` })).toMatchObject({
      ok: true,
      data: { status: "saved", before: null, after: URL_A },
    });
    const set = await current();
    expect(set.webhookUrl).toBe(URL_A);
    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: set.updatedAt, webhookUrl: URL_A })).toMatchObject({ ok: true, data: { status: "unchanged" } });

    // The demo's simulated game listens on this machine over plain http: the revoke endpoint's rule.
    const local = "http://127.0.0.1:4010/webhook";
    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: set.updatedAt, webhookUrl: local })).toMatchObject({ ok: true, data: { before: URL_A, after: local } });
    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: (await current()).updatedAt, webhookUrl: "  " })).toMatchObject({
      ok: true,
      data: { status: "saved", before: local, after: null },
    });
    expect((await current()).webhookUrl).toBeNull();

    expect(await auditRows()).toEqual([
      { actor: "staff:manager@example.com", detail: { field: "webhook_url", before: null, after: URL_A } },
      { actor: "staff:manager@example.com", detail: { field: "webhook_url", before: URL_A, after: local } },
      { actor: "staff:manager@example.com", detail: { field: "webhook_url", before: local, after: null } },
    ]);
  });

  it("refuses an address that is not a full https one, saying what is expected, without a change", async () => {
    signInAs("manager", [TENANT]);
    const before = await current();
    const audited = (await auditRows()).length;
    for (const url of ["http://game.example.com/webhook", "ftp://127.0.0.1/webhook", "game.example.com/webhook", "not a url", "https://user:secret@game.example.com/webhook"]) {
      const refused = await updateWebhook({ tenant: TENANT, expectedUpdatedAt: before.updatedAt, webhookUrl: url });
      expect(refused, url).toMatchObject({ ok: false, error: { code: "invalid-input" } });
      // Said on the field, with a webhook's example and how to have none.
      expect(!refused.ok && refused.error.fields, url).toEqual({
        webhookUrl: [
          "Enter a full address starting with https://, such as https://game.example.com/orderops/webhook (http:// only for localhost or 127.0.0.1), with no user name or password in it; or leave it empty for no webhook.",
        ],
      });
    }
    const long = await updateWebhook({ tenant: TENANT, expectedUpdatedAt: before.updatedAt, webhookUrl: `https://game.example.com/${"x".repeat(2048)}` });
    expect(long).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { webhookUrl: ["At most 2,048 characters."] } } });
    expect(await current()).toMatchObject({ webhookUrl: before.webhookUrl, updatedAt: before.updatedAt });
    expect(await auditRows()).toHaveLength(audited);
  });

  it("is refused to an agent and to ops (settings are a manager's), and to a manager of another product, without a change", async () => {
    const before = await current();
    for (const role of ["agent", "ops"] as const) {
      signInAs(role, [TENANT]);
      expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: before.updatedAt, webhookUrl: URL_A }), role).toMatchObject({ ok: false, error: { code: "forbidden" } });
    }
    signInAs("manager", ["elsewhere"]);
    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: before.updatedAt, webhookUrl: URL_A })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await current()).toMatchObject({ webhookUrl: null, updatedAt: before.updatedAt });
  });

  it("refuses a stale form: someone saved the product's settings since it was shown", async () => {
    signInAs("manager", [TENANT]);
    const rendered = await current();
    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: rendered.updatedAt, webhookUrl: URL_A })).toMatchObject({ ok: true, data: { status: "saved" } });
    expect(await updateWebhook({ tenant: TENANT, expectedUpdatedAt: rendered.updatedAt, webhookUrl: "" })).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect((await current()).webhookUrl).toBe(URL_A);
  });
});
