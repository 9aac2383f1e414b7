import { NextRequest } from "next/server";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { GET as getMessage } from "@/app/api/console/deliveries/[id]/route";
import { GET as getList } from "@/app/api/console/deliveries/route";
import { getPool } from "@/lib/db/pool";
import { execute, one, rows } from "@/lib/db/sql";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { MESSAGE_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "@/lib/jobs/signature";
import { startReceiver, type Receiver } from "@/lib/jobs/test-receiver";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import type { DeliveriesModel, DeliveryModel } from "./deliveries";

// The deliveries pages' JSON routes: the caller's products only, newest first in keyset pages that
// neither skip nor repeat a row, filters that mean what the status shows; one message with its
// attempts, the exact body sent and the headers — never the secret; another product's message is a 404.

useFreshDatabase();

const HOME = "dl-home";
const SECOND = "dl-second";
const OTHER = "dl-other";
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  receiver = await startReceiver((r) => (r.path === "/fail" ? 503 : 200));
  await ensureTenant(getPool(), tenantSpec(HOME, { webhookUrl: `${receiver.url}/ok` }));
  await ensureTenant(getPool(), tenantSpec(SECOND, { webhookUrl: `${receiver.url}/fail` }));
  await ensureTenant(getPool(), tenantSpec(OTHER, { webhookUrl: `${receiver.url}/ok` }));
  secret = (await one(getPool(), z.object({ s: z.string() }), `SELECT signing_secret AS s FROM tenant_settings WHERE tenant_id = $1`, [HOME])).s;
});

afterAll(async () => {
  await receiver.close();
});

async function list(query = ""): Promise<{ status: number; model: DeliveriesModel | null }> {
  const response = await getList(new NextRequest(`http://localhost/api/console/deliveries?${new URLSearchParams({ query })}`), { params: Promise.resolve({}) });
  const text = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<DeliveriesModel>(text) : null };
}

async function read(id: number | string): Promise<{ status: number; text: string }> {
  const response = await getMessage(new NextRequest(`http://localhost/api/console/deliveries/${id}`), { params: Promise.resolve({ id: String(id) }) });
  return { status: response.status, text: await response.text() };
}

/** `n` messages of `tenantId` in one statement: they share one created_at, the hard case for keyset pages. */
async function enqueue(tenantId: string, n: number, topic = "order.transitioned", orderId: number | null = null): Promise<number[]> {
  const inserted = await rows(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO outbox_messages (tenant_id, order_id, topic, payload) SELECT $1, $4, $3, jsonb_build_object('tenantId', $1::text, 'i', i, 'note', '中文 "quoted"') FROM generate_series(1, $2) i RETURNING id`,
    [tenantId, n, topic, orderId],
  );
  return inserted.map((r) => r.id);
}

async function drain(): Promise<void> {
  for (let i = 0; i < 50; i++) if ((await relayOutbox({ now: new Date(Date.now() + 1000), random: () => 1 })).claimed === 0) return;
}

describe("GET /api/console/deliveries", () => {
  it("pages through every message of the caller's products newest first, without skipping or repeating one", async () => {
    const home = await enqueue(HOME, 70);
    const second = await enqueue(SECOND, 40);
    const other = await enqueue(OTHER, 5);
    signInAs("ops", [HOME, SECOND]);
    const seen: number[] = [];
    let query = "";
    for (let page = 0; page < 10; page++) {
      const { model } = await list(query);
      seen.push(...model!.rows.map((r) => r.id));
      if (!model!.older) break;
      query = `after=${model!.older.at}_${model!.older.id}`;
    }
    expect(seen.filter((id) => other.includes(id))).toEqual([]);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => a - b)).toEqual([...home, ...second].sort((a, b) => a - b));
    // Newest first: the second batch was written after the first.
    expect(seen.indexOf(second[0]!)).toBeLessThan(seen.indexOf(home[0]!));
    const { model } = await list();
    expect(model!.rows).toHaveLength(50);
    expect(model!.tenants.map((t) => t.id)).toEqual([HOME, SECOND]);
  });

  it("derives each status once, and the status filter lists exactly the rows shown with it", async () => {
    const silentTenant = "dl-silent";
    await ensureTenant(getPool(), tenantSpec(silentTenant, { webhookUrl: null }));
    await execute(getPool(), `UPDATE outbox_messages SET status = 'dead' WHERE status = 'pending'`);
    const [delivered] = await enqueue(HOME, 1);
    const [retrying] = await enqueue(SECOND, 1);
    const [unsent] = await enqueue(silentTenant, 1);
    await drain();
    const [queued] = await enqueue(HOME, 1);
    signInAs("manager", [HOME, SECOND, silentTenant]);
    const { model } = await list();
    const statusOf = (id: number) => model!.rows.find((r) => r.id === id)?.delivery;
    expect([statusOf(delivered!), statusOf(retrying!), statusOf(unsent!), statusOf(queued!)]).toEqual(["delivered", "retrying", "no-webhook", "queued"]);
    expect(model!.rows.find((r) => r.id === retrying)!.nextAttemptAt).toBeInstanceOf(Date);
    expect(model!.rows.find((r) => r.id === delivered)!.nextAttemptAt).toBeNull();
    for (const status of ["queued", "retrying", "delivered", "dead", "no-webhook"] as const) {
      const filtered = (await list(`status=${status}`)).model!.rows;
      expect(filtered.length, status).toBeGreaterThan(0);
      expect(filtered.every((r) => r.delivery === status), status).toBe(true);
    }
    // Not sent is never delivered.
    expect((await list("status=delivered")).model!.rows.map((r) => r.id)).not.toContain(unsent);
  });

  it("filters by product, topic, order no and time, and names a filter it cannot read instead of failing", async () => {
    const order = await createOrder(getPool(), { tenantId: HOME, lines: [{ sku: "gems", kind: "currency", quantity: 1 }] });
    const [ofOrder] = await enqueue(HOME, 1, "order.granted", order.id);
    signInAs("ops", [HOME, SECOND]);
    expect((await list(`order=${order.orderNo.toLowerCase()}`)).model!.rows.map((r) => [r.id, r.orderNo])).toEqual([[ofOrder, order.orderNo]]);
    expect((await list("topic=order.granted")).model!.rows.map((r) => r.id)).toEqual([ofOrder]);
    expect((await list(`tenant=${SECOND}`)).model!.rows.every((r) => r.tenantId === SECOND)).toBe(true);
    // A product outside the scope reads nothing.
    expect((await list(`tenant=${OTHER}`)).model!.rows).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list(`from=${future}`)).model!.rows).toEqual([]);
    expect((await list(`to=${future}`)).model!.rows.length).toBeGreaterThan(0);
    const bad = await list("status=lost&from=yesterday&after=nonsense&topic=a%00b");
    expect(bad.status).toBe(200);
    expect(bad.model!.invalid.map((i) => i.field).sort()).toEqual(["after", "from", "status", "topic"]);
    expect(bad.model!.rows.length).toBeGreaterThan(0);
  });

  it("is for ops, managers and admins: an agent is refused, and so is no session", async () => {
    signInAs("agent", [HOME]);
    expect((await list()).status).toBe(403);
    signInAs("admin", [HOME]);
    expect((await list()).status).toBe(200);
    signOut();
    expect((await list()).status).toBe(401);
  });
});

describe("GET /api/console/deliveries/{id}", () => {
  it("shows the attempts, the exact signed body and the headers sent — verifiable, without the secret", async () => {
    await execute(getPool(), `UPDATE outbox_messages SET status = 'dead' WHERE status = 'pending'`);
    const [id] = await enqueue(HOME, 1);
    await drain();
    signInAs("ops", [HOME]);
    const { status, text } = await read(id!);
    expect(status, text).toBe(200);
    expect(text).not.toContain(secret);
    const m = superjson.parse<DeliveryModel>(text);
    expect(m.message).toMatchObject({ id, tenantId: HOME, delivery: "delivered", attempts: 1, nextAttemptAt: null });
    expect(m).toMatchObject({ maySend: true, resendBlocked: null });
    const received = receiver.requests.find((r) => r.headers[MESSAGE_ID_HEADER] === String(id))!;
    expect(m.message.body).toBe(received.body);
    expect(m.message.log).toHaveLength(1);
    const [attempt] = m.message.log;
    expect(attempt).toMatchObject({ status: 200, error: null, responseBody: "ok", url: `${receiver.url}/ok` });
    expect(attempt!.at).toBeInstanceOf(Date);
    expect(verifySignature({ secret, signature: attempt!.headers[SIGNATURE_HEADER], timestamp: attempt!.headers[TIMESTAMP_HEADER], body: m.message.body })).toBe(true);
  });

  it("a failing endpoint: each attempt with its status and body, the next attempt time, and no resend while it retries", async () => {
    const [id] = await enqueue(SECOND, 1);
    await relayOutbox({ now: new Date(Date.now() + 1000), random: () => 1 });
    signInAs("ops", [SECOND]);
    const m = superjson.parse<DeliveryModel>((await read(id!)).text);
    expect(m.message.delivery).toBe("retrying");
    expect(m.message.nextAttemptAt).toBeInstanceOf(Date);
    expect(m.message.log).toMatchObject([{ status: 503, error: "HTTP 503: refused", responseBody: "refused" }]);
    expect(m).toMatchObject({ maySend: true, resendBlocked: "on-its-way" });
    await execute(getPool(), `UPDATE outbox_messages SET status = 'dead' WHERE id = $1`, [id]);
  });

  it("another product's message is not found, exactly like a missing one; an id that is no number too", async () => {
    const [foreign] = await enqueue(OTHER, 1);
    signInAs("ops", [HOME]);
    expect((await read(foreign!)).status).toBe(404);
    expect((await read(999_999_999)).status).toBe(404);
    expect((await read("abc")).status).toBe(404);
    const denied = await one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM audit_events WHERE action = 'access.denied' AND target = $1`, [`outbox:${foreign}`]);
    expect(denied.n).toBe(1);
  });
});
