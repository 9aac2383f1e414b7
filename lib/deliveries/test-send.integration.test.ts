import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testSend as testSendAction } from "@/app/[locale]/(console)/deliveries/actions/test-send";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { MESSAGE_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, TOPIC_HEADER, verifySignature } from "@/lib/jobs/signature";
import { startReceiver, type Receiver } from "@/lib/jobs/test-receiver";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { testSend } from "./test-send";

// Test sends (issue 27, item 4): a signed ping to a product's webhook, grant or revoke endpoint, with
// its status, latency and whether it answered in time; audited; nothing else written.

useFreshDatabase();

const TENANT = "ping-home";
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  receiver = await startReceiver((r) => (r.path === "/hang" ? new Promise<number>(() => undefined) : r.path === "/refuse" ? 401 : 200));
  await ensureTenant(getPool(), tenantSpec(TENANT, { webhookUrl: `${receiver.url}/hook`, grantEndpointUrl: `${receiver.url}/refuse` }));
  await getPool().query(`UPDATE tenant_settings SET revoke_endpoint_url = $2 WHERE tenant_id = $1`, [TENANT, `${receiver.url}/hang`]);
  secret = (await one(getPool(), z.object({ s: z.string() }), `SELECT signing_secret AS s FROM tenant_settings WHERE tenant_id = $1`, [TENANT])).s;
});

afterAll(async () => {
  await receiver.close();
});

const written = async () =>
  (
    await one(
      getPool(),
      z.object({ n: z.string() }),
      `SELECT (SELECT count(*) FROM outbox_messages) || '/' || (SELECT count(*) FROM outbox_attempts) || '/' || (SELECT count(*) FROM order_transitions) || '/' || (SELECT count(*) FROM orders) AS n`,
    )
  ).n;

describe("testSend", () => {
  it("pings the webhook signed like every call, and says the status, the latency and that it answered in time", async () => {
    const before = await written();
    const result = await testSend({ tenantId: TENANT, endpoint: "webhook", actor: "staff:ops@example.com" });
    expect(result).toMatchObject({ outcome: "answered", endpoint: "webhook", url: `${receiver.url}/hook`, status: 200, error: null, inTime: true });
    const ping = receiver.requests.at(-1)!;
    expect(ping.path).toBe("/hook");
    expect(ping.headers[TOPIC_HEADER]).toBe("ping");
    expect(String(ping.headers[MESSAGE_ID_HEADER])).toMatch(/^ping-/);
    expect(JSON.parse(ping.body)).toMatchObject({ type: "ping", tenantId: TENANT, endpoint: "webhook" });
    expect(verifySignature({ secret, signature: String(ping.headers[SIGNATURE_HEADER]), timestamp: String(ping.headers[TIMESTAMP_HEADER]), body: ping.body })).toBe(true);
    // Changes no order and queues nothing.
    expect(await written()).toBe(before);
    const fact = await one(getPool(), z.object({ detail: z.record(z.string(), z.unknown()) }), `SELECT detail FROM audit_events WHERE action = 'webhook.test-sent' ORDER BY id DESC LIMIT 1`);
    expect(fact.detail).toMatchObject({ endpoint: "webhook", outcome: "answered", status: 200, inTime: true });
  });

  it("a refusing grant endpoint, a revoke endpoint that never answers, and an endpoint not configured", async () => {
    expect(await testSend({ tenantId: TENANT, endpoint: "grant", actor: "a" })).toMatchObject({ outcome: "refused", status: 401, inTime: true });
    expect(await testSend({ tenantId: TENANT, endpoint: "revoke", actor: "a", timeoutMs: 300 })).toMatchObject({ outcome: "no-answer", status: null, inTime: false, error: "timed out after 300 ms" });
    await ensureTenant(getPool(), tenantSpec("ping-bare"));
    expect(await testSend({ tenantId: "ping-bare", endpoint: "webhook", actor: "a" })).toEqual({ outcome: "not-configured", endpoint: "webhook" });
  });

  it("the action checks the permission and the product's scope", async () => {
    signInAs("agent", [TENANT]);
    expect(await testSendAction({ tenant: TENANT, endpoint: "webhook" })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    signInAs("ops", ["elsewhere"]);
    expect(await testSendAction({ tenant: TENANT, endpoint: "webhook" })).toMatchObject({ ok: false, error: { code: "not-found" } });
    signInAs("admin", [TENANT]);
    expect(await testSendAction({ tenant: TENANT, endpoint: "webhook" })).toMatchObject({ ok: true, data: { outcome: "answered" } });
    expect(await testSendAction({ tenant: TENANT, endpoint: "nowhere" as "webhook" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });
});
