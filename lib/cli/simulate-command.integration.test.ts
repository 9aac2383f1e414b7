// The simulator points the demo products' webhooks at its receivers (issue 27, item 7): the products
// in FLAKY_WEBHOOK_TENANTS at the unreliable one, the others at the reliable one, audited, and never
// over a webhook someone set for a real integration.
import { beforeEach, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { FLAKY_WEBHOOK_TENANTS } from "@/lib/sim/flaky-webhook";
import { useFreshDatabase } from "@/lib/test/database";
import { listenForWebhooks } from "./simulate-command";

useFreshDatabase();

const urls = { reliable: "http://127.0.0.1:4010/webhooks", flaky: "http://127.0.0.1:4010/webhooks/flaky" };
const webhooks = async () => Object.fromEntries((await listTenantSettings(["xiaoxiao", "fangzhou"])).map((s) => [s.tenantId, s.webhookUrl]));
const setWebhook = async (tenant: string, url: string | null) => {
  const [settings] = await listTenantSettings([tenant]);
  await updateTenantSettings(tenant, settings!.updatedAt, { field: "webhook_url", value: url }, "staff:admin@example.com");
};

beforeEach(async () => {
  for (const id of ["xiaoxiao", "fangzhou"]) await ensureTenant(getPool(), tenantSpec(id));
  await setWebhook("xiaoxiao", null);
  await setWebhook("fangzhou", null);
});

describe("the demo products' webhooks", () => {
  it("xiaoxiao's go to the unreliable receiver and fangzhou's to the reliable one, each change audited", async () => {
    expect(FLAKY_WEBHOOK_TENANTS).toEqual(["xiaoxiao"]);
    const lines: string[] = [];
    await listenForWebhooks(urls, (line) => lines.push(line));
    expect(await webhooks()).toEqual({ xiaoxiao: urls.flaky, fangzhou: urls.reliable });
    expect(lines).toEqual([]);
    const { rows } = await getPool().query<{ tenant: string; after: string }>(
      `SELECT tenant_id AS tenant, detail ->> 'after' AS after FROM audit_events WHERE action = 'settings.updated' AND detail ->> 'after' LIKE 'http://127.0.0.1:4010/%' ORDER BY id`,
    );
    expect(rows.map((r) => [r.tenant, r.after]).sort()).toEqual([
      ["fangzhou", urls.reliable],
      ["xiaoxiao", urls.flaky],
    ]);
  });

  it("follows a new run's port over a previous run's receiver, reliable or not, and leaves a real integration's webhook alone", async () => {
    await setWebhook("xiaoxiao", "http://127.0.0.1:4999/webhooks");
    await setWebhook("fangzhou", "https://game.example.com/orderops/webhook");
    const lines: string[] = [];
    await listenForWebhooks(urls, (line) => lines.push(line));
    expect(await webhooks()).toEqual({ xiaoxiao: urls.flaky, fangzhou: "https://game.example.com/orderops/webhook" });
    expect(lines).toEqual(["fangzhou sends its webhooks to https://game.example.com/orderops/webhook: refund requests will not reach the simulated channels"]);

    await setWebhook("fangzhou", "http://127.0.0.1:4999/webhooks/flaky");
    await listenForWebhooks(urls, () => undefined);
    expect(await webhooks()).toEqual({ xiaoxiao: urls.flaky, fangzhou: urls.reliable });
  });
});
