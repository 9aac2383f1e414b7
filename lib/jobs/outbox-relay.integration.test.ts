import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { execute, one, rows } from "@/lib/db/sql";
import { requestRefund } from "@/lib/refunds/request-refund";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { claimOutboxBatch, NO_WEBHOOK, relayOutbox, type RelayReport } from "./outbox-relay";
import { MESSAGE_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, TOPIC_HEADER, verifySignature } from "./signature";
import { startReceiver, type Receiver } from "./test-receiver";

useFreshDatabase();

let receiver: Receiver;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  // /ok accepts, /fail refuses, /hang never answers.
  receiver = await startReceiver((request) =>
    request.path === "/hang" ? new Promise<number>(() => undefined) : request.path === "/fail" ? 503 : 200,
  );
  const pool = getPool();
  for (const [id, path] of [["hooks", "/ok"], ["hooks-b", "/ok"], ["failing", "/fail"], ["hanging", "/hang"], ["silent", null]] as const) {
    await ensureTenant(pool, tenantSpec(id, { webhookUrl: path ? `${receiver.url}${path}` : null }));
    const { signingSecret } = await one(pool, z.object({ signingSecret: z.string() }), `SELECT signing_secret AS "signingSecret" FROM tenant_settings WHERE tenant_id = $1`, [id]);
    secrets[id] = signingSecret;
  }
});

afterAll(async () => {
  await receiver.close();
});

// Each test starts with an empty queue: what one leaves pending would come due in the next.
afterEach(async () => {
  await execute(getPool(), `UPDATE outbox_messages SET status = 'dead', last_error = 'test cleanup' WHERE status = 'pending'`);
});

/** Outbox rows as transit() writes them (the relay does not care who wrote them). */
async function enqueue(tenantId: string, n: number): Promise<number[]> {
  const inserted = await rows(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO outbox_messages (tenant_id, topic, payload)
     SELECT $1, 'order.transitioned', jsonb_build_object('tenantId', $1::text, 'orderNo', 'N' || i, 'event', 'pay', 'version', 1)
     FROM generate_series(1, $2) i RETURNING id`,
    [tenantId, n],
  );
  return inserted.map((r) => r.id);
}

const messageRow = z.object({
  id: z.number(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.coerce.date(),
  deliveredAt: z.coerce.date().nullable(),
});

function rowsOf(ids: readonly number[]) {
  return rows(
    getPool(),
    messageRow,
    `SELECT id, status, attempts, last_error AS "lastError", next_attempt_at AS "nextAttemptAt", delivered_at AS "deliveredAt"
     FROM outbox_messages WHERE id = ANY($1) ORDER BY id`,
    [ids],
  );
}

async function drain(options: Parameters<typeof relayOutbox>[0]): Promise<RelayReport[]> {
  const reports: RelayReport[] = [];
  for (;;) {
    const report = await relayOutbox(options);
    reports.push(report);
    if (report.claimed === 0) return reports;
  }
}

const total = (reports: readonly RelayReport[], key: keyof RelayReport) => reports.reduce((n, r) => n + r[key], 0);

describe("relayOutbox", () => {
  it("two relays draining 600 messages at once deliver every one exactly once, signed", async () => {
    const ids = [...(await enqueue("hooks", 300)), ...(await enqueue("hooks-b", 300))];
    const before = receiver.requests.length;

    const [a, b] = await Promise.all([drain({ batchSize: 25 }), drain({ batchSize: 25 })]);

    expect(total(a, "delivered") + total(b, "delivered")).toBe(600);
    expect(total(a, "delivered")).toBeGreaterThan(0);
    expect(total(b, "delivered")).toBeGreaterThan(0);
    const received = receiver.requests.slice(before);
    expect(received).toHaveLength(600);
    const messageIds = received.map((r) => Number(r.headers[MESSAGE_ID_HEADER]));
    expect(new Set(messageIds).size).toBe(600);
    expect([...messageIds].sort((x, y) => x - y)).toEqual(ids);

    for (const request of received) {
      const body = JSON.parse(request.body) as { tenantId: string };
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers[TOPIC_HEADER]).toBe("order.transitioned");
      expect(
        verifySignature({
          secret: secrets[body.tenantId]!,
          signature: request.headers[SIGNATURE_HEADER] as string,
          timestamp: request.headers[TIMESTAMP_HEADER] as string,
          body: request.body,
        }),
      ).toBe(true);
      // Signed with its own tenant's secret, not another's.
      const other = body.tenantId === "hooks" ? "hooks-b" : "hooks";
      expect(
        verifySignature({
          secret: secrets[other]!,
          signature: request.headers[SIGNATURE_HEADER] as string,
          timestamp: request.headers[TIMESTAMP_HEADER] as string,
          body: request.body,
        }),
      ).toBe(false);
    }
    const messages = await rowsOf(ids);
    expect(messages.every((r) => r.status === "delivered" && r.attempts === 1 && r.lastError === null && r.deliveredAt)).toBe(true);
  });

  it("a refusing receiver: backoff doubles from 2 s, nothing is sent early, dead after the last attempt", async () => {
    const [id] = await enqueue("failing", 1);
    const t0 = new Date(Date.now() + 1000);
    const sent = () => receiver.requests.filter((r) => r.headers[MESSAGE_ID_HEADER] === String(id)).length;
    const maxAttempts = 4;
    // random = 1: the delay is the full step, base · 2^(failures − 1).
    const relay = (now: Date) => relayOutbox({ now, maxAttempts, random: () => 1 });

    let now = t0;
    for (const [failures, delayMs] of [[1, 2000], [2, 4000], [3, 8000]] as const) {
      expect(await relay(now)).toMatchObject({ claimed: 1, retrying: 1, dead: 0 });
      const [row] = await rowsOf([id!]);
      expect(row).toMatchObject({ status: "pending", attempts: failures, lastError: "HTTP 503: refused" });
      expect(row!.nextAttemptAt.getTime()).toBe(now.getTime() + delayMs);
      // Not due a millisecond early.
      expect((await relay(new Date(row!.nextAttemptAt.getTime() - 1))).claimed).toBe(0);
      now = row!.nextAttemptAt;
    }
    expect(await relay(now)).toMatchObject({ claimed: 1, retrying: 0, dead: 1 });
    expect(await rowsOf([id!])).toMatchObject([{ status: "dead", attempts: 4, lastError: "HTTP 503: refused", deliveredAt: null }]);
    expect(sent()).toBe(4);
    // Dead is final for the relay: only ops bring it back.
    expect((await relay(new Date(now.getTime() + 24 * 3600_000))).claimed).toBe(0);
    expect(sent()).toBe(4);
  });

  it("jitter keeps each delay in the upper half of its step", async () => {
    const ids = await enqueue("failing", 20);
    const now = new Date(Date.now() + 1000);
    expect(await relayOutbox({ now, batchSize: 20 })).toMatchObject({ claimed: 20, retrying: 20 });
    const delays = (await rowsOf(ids)).map((r) => r.nextAttemptAt.getTime() - now.getTime());
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
    expect(new Set(delays).size).toBeGreaterThan(1);
  });

  it("a receiver that never answers times out and counts as a failed attempt", async () => {
    const [id] = await enqueue("hanging", 1);
    const report = await relayOutbox({ now: new Date(Date.now() + 1000), timeoutMs: 200 });
    expect(report).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await rowsOf([id!])).toMatchObject([{ status: "pending", attempts: 1, lastError: "timed out after 200 ms" }]);
  });

  it("a tenant without a webhook URL: marked delivered with a note, nothing sent", async () => {
    const ids = await enqueue("silent", 3);
    const before = receiver.requests.length;
    const reports = await drain({ now: new Date(Date.now() + 1000) });
    expect(total(reports, "unconfigured")).toBe(3);
    expect(receiver.requests.length).toBe(before);
    const messages = await rowsOf(ids);
    expect(messages.every((r) => r.status === "delivered" && r.attempts === 0 && r.lastError === NO_WEBHOOK && r.deliveredAt)).toBe(true);
  });

  it("a relay that crashes after claiming: its messages wait out the lease, then go once", async () => {
    const ids = await enqueue("hooks", 5);
    const now = new Date(Date.now() + 1000);
    // The "crashed" relay claims and never settles.
    expect(await claimOutboxBatch(getPool(), { batchSize: 100, leaseMs: 60_000, now })).toHaveLength(5);

    expect((await relayOutbox({ now: new Date(now.getTime() + 59_000) })).claimed).toBe(0);
    const before = receiver.requests.length;
    expect(await relayOutbox({ now: new Date(now.getTime() + 60_000) })).toMatchObject({ claimed: 5, delivered: 5 });
    expect(receiver.requests.length - before).toBe(5);
    expect((await rowsOf(ids)).every((r) => r.status === "delivered" && r.attempts === 1)).toBe(true);
  });

  it("a relay that overran its lease cannot overwrite the outcome of the relay that took over", async () => {
    const [id] = await enqueue("failing", 1);
    const now = new Date(Date.now() + 1000);
    // First relay: claims with a 1 s lease, then takes long (its receiver answers slowly).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowFetch: typeof fetch = async () => {
      await gate;
      return new Response(null, { status: 200 });
    };
    const slow = relayOutbox({ now, leaseMs: 1000, fetch: slowFetch });
    await expect.poll(async () => (await rowsOf([id!]))[0]!.nextAttemptAt.getTime()).toBe(now.getTime() + 1000);
    // Second relay, after the lease: the message is due again and fails at the real receiver.
    expect(await relayOutbox({ now: new Date(now.getTime() + 1000), random: () => 1 })).toMatchObject({ claimed: 1, retrying: 1 });
    release();
    expect(await slow).toMatchObject({ claimed: 1, delivered: 1 });
    // The second relay's outcome stands: the first one's late "delivered" was fenced off.
    expect(await rowsOf([id!])).toMatchObject([{ status: "pending", attempts: 1, lastError: "HTTP 503: refused" }]);
  });

  it("a refund request is signed to the channel like every webhook; once delivered, the refund is sent — not where no webhook listens", async () => {
    const ask = (tenantId: string, refundId: string) =>
      requestRefund({
        tenantId,
        refundId,
        orderId: null,
        caseId: null,
        channel: "alipay",
        paymentTxn: `alipay-${refundId}`,
        paymentAmount: 18_00,
        amount: 18_00,
        currency: "CNY",
        reason: "paid after close",
        requestedBy: "staff:ops@example.com",
      });
    await ask("hooks", "rf-relay-1");
    await ask("silent", "rf-relay-2");
    const before = receiver.requests.length;
    await drain({});

    const request = receiver.requests.slice(before).find((r) => r.headers[TOPIC_HEADER] === "refund.requested")!;
    expect(JSON.parse(request.body)).toMatchObject({ tenantId: "hooks", refundId: "rf-relay-1", paymentTxn: "alipay-rf-relay-1", amount: 18_00, currency: "CNY" });
    expect(
      verifySignature({ secret: secrets.hooks!, signature: String(request.headers[SIGNATURE_HEADER]), timestamp: String(request.headers[TIMESTAMP_HEADER]), body: request.body }),
    ).toBe(true);
    const refunds = await rows(getPool(), z.object({ refundId: z.string(), status: z.string() }), `SELECT refund_id AS "refundId", status FROM payment_refunds ORDER BY refund_id`);
    expect(refunds).toEqual([
      { refundId: "rf-relay-1", status: "sent" },
      { refundId: "rf-relay-2", status: "requested" },
    ]);
    const sent = await one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM audit_events WHERE action = 'refund.sent' AND actor = 'system:outbox-relay'`);
    expect(sent.n).toBe(1);
  });
});
