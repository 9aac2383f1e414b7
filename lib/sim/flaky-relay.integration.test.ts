// The demo's deliveries, end to end but for the clock (issue 27, item 7): a demo product's messages
// relayed by the real relay (lib/jobs/outbox-relay.ts), with the demo's attempt budget, to the real
// unreliable receiver (simulator.ts), end in every status the deliveries page shows — delivered at
// once, retrying then delivered, and dead — each message by its fate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { enqueueMessage } from "@/lib/outbox/outbox";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { listTenantSettings } from "@/lib/settings/tenant-settings";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { useFreshDatabase } from "@/lib/test/database";
import { DEMO_OUTBOX_MAX_ATTEMPTS, FLAKY_FAILURES, webhookFate } from "./flaky-webhook";
import { signingSecrets, startGrantEndpoint } from "./simulator";

useFreshDatabase();

const TENANT = "xiaoxiao";
const MESSAGES = 60;
/** The relay's timeout and the receiver's slowness, shortened together (the demo's: 10 s, 4 s and 15 s). */
// Generous beside what an answer at once takes, so that only the too-slow receiver times out even on
// a loaded machine.
const TIMEOUT_MS = 5_000;
const TIMINGS = { slowMs: 100, tooSlowMs: 8_000 };

let endpoint: Awaited<ReturnType<typeof startGrantEndpoint>>;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(TENANT, { deliveryMode: "external" }));
  // The tenants' secrets as the demo reads them, read once: the demo's receiver reads them on every
  // call, which on a loaded machine would race the timeout this test shortens.
  const secrets = await signingSecrets();
  expect(Object.keys(secrets)).toContain(TENANT);
  endpoint = await startGrantEndpoint({ port: 0, secrets: async () => secrets, flakyTimings: TIMINGS });
  const [settings] = await listTenantSettings([TENANT]);
  await updateTenantSettings(TENANT, settings!.updatedAt, { field: "webhook_url", value: endpoint.flakyWebhookUrl }, "staff:admin@example.com");
  for (let i = 0; i < MESSAGES; i++) await enqueueMessage(getPool(), { tenantId: TENANT, orderId: null, topic: "order.paid", payload: { tenantId: TENANT, n: i } });
});
afterAll(() => new Promise<void>((resolve) => endpoint.server.close(() => resolve())));

const messages = () =>
  rows(getPool(), z.object({ id: z.number(), status: z.string(), attempts: z.number() }), `SELECT id::int AS id, status, attempts FROM outbox_messages WHERE tenant_id = $1 ORDER BY id`, [TENANT]);

describe("the demo's deliveries to the unreliable receiver", () => {
  it("end delivered at once, delivered after retrying, or dead, each message by its fate", async () => {
    const relay = () => relayOutbox({ timeoutMs: TIMEOUT_MS, maxAttempts: DEMO_OUTBOX_MAX_ATTEMPTS, random: () => 0, concurrency: 16 });

    expect(await relay()).toMatchObject({ claimed: MESSAGES });
    const first = await messages();
    const fate = (id: number) => webhookFate(String(id));
    // After one pass: the on-time and slow ones delivered, the rest retrying.
    for (const m of first) {
      expect(m, fate(m.id)).toMatchObject(fate(m.id) === "on-time" || fate(m.id) === "slow" ? { status: "delivered", attempts: 1 } : { status: "pending", attempts: 1 });
    }

    // Each later pass once the backoff is over (made due now: the relay's clock cannot be moved on,
    // as the receiver checks the signature's timestamp against its own), until nothing is pending.
    for (let pass = 2; pass <= DEMO_OUTBOX_MAX_ATTEMPTS + 1 && (await messages()).some((m) => m.status === "pending"); pass++) {
      await getPool().query(`UPDATE outbox_messages SET next_attempt_at = now() WHERE tenant_id = $1 AND status = 'pending'`, [TENANT]);
      await relay();
    }
    const last = await messages();
    const expected = (id: number) => {
      switch (fate(id)) {
        case "on-time":
        case "slow":
          return { status: "delivered", attempts: 1 };
        case "too-slow":
          return { status: "delivered", attempts: 2 };
        case "flaky":
          return { status: "delivered", attempts: FLAKY_FAILURES + 1 };
        case "down":
          return { status: "dead", attempts: DEMO_OUTBOX_MAX_ATTEMPTS };
      }
    };
    expect(last).toEqual(first.map((m) => ({ id: m.id, ...expected(m.id) })));
    // Each fate is in the sample, so each status was shown.
    expect(new Set(last.map((m) => fate(m.id)))).toEqual(new Set(["on-time", "flaky", "slow", "too-slow", "down"]));
  }, 60_000);
});
