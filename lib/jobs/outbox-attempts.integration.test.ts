import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { execute, one, rows } from "@/lib/db/sql";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { relayOutbox } from "./outbox-relay";
import { MESSAGE_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, TOPIC_HEADER, verifySignature } from "./signature";
import { startReceiver, type Receiver } from "./test-receiver";

// The deliveries log (issue 27, item 1): every request the relay makes is a row of outbox_attempts,
// written with the message's settlement and fenced by the same lease.

useFreshDatabase();

let receiver: Receiver;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  receiver = await startReceiver((request) => (request.path === "/fail" ? 503 : 200));
  const pool = getPool();
  for (const [id, path] of [["log-ok", "/ok"], ["log-fail", "/fail"], ["log-silent", null]] as const) {
    await ensureTenant(pool, tenantSpec(id, { webhookUrl: path ? `${receiver.url}${path}` : null }));
    const { signingSecret } = await one(pool, z.object({ signingSecret: z.string() }), `SELECT signing_secret AS "signingSecret" FROM tenant_settings WHERE tenant_id = $1`, [id]);
    secrets[id] = signingSecret;
  }
});

afterAll(async () => {
  await receiver.close();
});

afterEach(async () => {
  await execute(getPool(), `UPDATE outbox_messages SET status = 'dead', last_error = 'test cleanup' WHERE status = 'pending'`);
});

async function enqueue(tenantId: string): Promise<number> {
  const row = await one(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO outbox_messages (tenant_id, topic, payload) VALUES ($1, 'order.transitioned', jsonb_build_object('tenantId', $1::text, 'orderNo', 'L-1')) RETURNING id`,
    [tenantId],
  );
  return row.id;
}

const attemptRow = z.object({
  tenantId: z.string(),
  url: z.string(),
  attemptedAt: z.coerce.date(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number(),
  responseBody: z.string(),
  requestHeaders: z.record(z.string(), z.string()),
});

function attemptsOf(messageId: number) {
  return rows(
    getPool(),
    attemptRow,
    `SELECT tenant_id AS "tenantId", url, attempted_at AS "attemptedAt", status, error, latency_ms AS "latencyMs",
            response_body AS "responseBody", request_headers AS "requestHeaders"
     FROM outbox_attempts WHERE message_id = $1 ORDER BY id`,
    [messageId],
  );
}

describe("the attempts log", () => {
  it("records a delivered attempt with the headers sent — signature verifiable, secret absent — and the answer", async () => {
    const id = await enqueue("log-ok");
    const now = new Date(Date.now() + 1000);
    expect(await relayOutbox({ now })).toMatchObject({ delivered: 1 });
    const [attempt, ...more] = await attemptsOf(id);
    expect(more).toHaveLength(0);
    expect(attempt).toMatchObject({ tenantId: "log-ok", url: `${receiver.url}/ok`, status: 200, error: null, responseBody: "ok" });
    expect(attempt!.attemptedAt.getTime()).toBe(now.getTime());
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(0);
    const headers = attempt!.requestHeaders;
    expect(headers[MESSAGE_ID_HEADER]).toBe(String(id));
    expect(headers[TOPIC_HEADER]).toBe("order.transitioned");
    // The headers recorded are the ones the receiver got, and they verify against the body sent.
    const received = receiver.requests.find((r) => r.headers[MESSAGE_ID_HEADER] === String(id))!;
    expect(headers[SIGNATURE_HEADER]).toBe(received.headers[SIGNATURE_HEADER]);
    expect(verifySignature({ secret: secrets["log-ok"]!, signature: headers[SIGNATURE_HEADER], timestamp: headers[TIMESTAMP_HEADER], body: received.body, now })).toBe(true);
    expect(JSON.stringify(headers)).not.toContain(secrets["log-ok"]!);
  });

  it("records each failed attempt with its status and error, one row per request", async () => {
    const id = await enqueue("log-fail");
    let now = new Date(Date.now() + 1000);
    for (let i = 0; i < 3; i++) {
      expect(await relayOutbox({ now, random: () => 1 })).toMatchObject({ claimed: 1, retrying: 1 });
      now = new Date(now.getTime() + 60_000);
    }
    const attempts = await attemptsOf(id);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.status === 503 && a.error === "HTTP 503: refused" && a.responseBody === "refused")).toBe(true);
    const { attempts: counted } = await one(getPool(), z.object({ attempts: z.number() }), `SELECT attempts FROM outbox_messages WHERE id = $1`, [id]);
    expect(counted).toBe(3);
  });

  it("keeps the first 1 KB of a long answer, cut on a character boundary; a network error has no status", async () => {
    const long = "答".repeat(1000); // 3 bytes each: 341 fit in 1,024 bytes
    const id = await enqueue("log-ok");
    await relayOutbox({ now: new Date(Date.now() + 1000), fetch: async () => new Response(long, { status: 500 }), random: () => 1 });
    const [failed] = await attemptsOf(id);
    expect(failed!.status).toBe(500);
    expect(failed!.responseBody).toBe("答".repeat(341));
    expect(Buffer.byteLength(failed!.responseBody)).toBe(1023);

    const refused = await enqueue("log-ok");
    await relayOutbox({
      now: new Date(Date.now() + 1000),
      fetch: async () => {
        throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
      },
      random: () => 1,
    });
    expect(await attemptsOf(refused)).toMatchObject([{ status: null, error: "fetch failed (ECONNREFUSED)", responseBody: "" }]);
  });

  it("a message not sent (no webhook configured) has no attempt", async () => {
    const id = await enqueue("log-silent");
    expect(await relayOutbox({ now: new Date(Date.now() + 1000) })).toMatchObject({ unconfigured: 1 });
    expect(await attemptsOf(id)).toHaveLength(0);
  });

  it("a relay that overran its lease records nothing: only the relay that took over logs its attempt", async () => {
    const id = await enqueue("log-fail");
    const now = new Date(Date.now() + 1000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = relayOutbox({
      now,
      leaseMs: 1000,
      fetch: async () => {
        await gate;
        return new Response("late", { status: 200 });
      },
    });
    await expect.poll(async () => (await one(getPool(), z.object({ at: z.coerce.date() }), `SELECT next_attempt_at AS at FROM outbox_messages WHERE id = $1`, [id])).at.getTime()).toBe(now.getTime() + 1000);
    expect(await relayOutbox({ now: new Date(now.getTime() + 1000), random: () => 1 })).toMatchObject({ claimed: 1, retrying: 1 });
    release();
    await slow;
    expect(await attemptsOf(id)).toMatchObject([{ status: 503, error: "HTTP 503: refused" }]);
  });

  it("the log cannot be rewritten", async () => {
    await expect(execute(getPool(), `UPDATE outbox_attempts SET status = 200`)).rejects.toThrow(/append-only/);
    await expect(execute(getPool(), `DELETE FROM outbox_attempts`)).rejects.toThrow(/append-only/);
  });
});
