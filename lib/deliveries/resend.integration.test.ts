import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resendMessage as resendAction } from "@/app/[locale]/(console)/deliveries/actions/resend-message";
import { getPool } from "@/lib/db/pool";
import { execute, one } from "@/lib/db/sql";
import { relayOutbox } from "@/lib/jobs/outbox-relay";
import { MESSAGE_ID_HEADER } from "@/lib/jobs/signature";
import { startReceiver, type Receiver } from "@/lib/jobs/test-receiver";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";
import { resendMessage } from "./resend";

// Resend (issue 27, item 3): the same message made pending again, audited in the same transaction,
// once per request key — a double click, concurrent calls, and two separate web processes alike.

useFreshDatabase();

const HOME = "resend-home";
const OTHER = "resend-other";
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  await ensureTenant(getPool(), tenantSpec(HOME, { webhookUrl: `${receiver.url}/hook` }));
  await ensureTenant(getPool(), tenantSpec(OTHER, { webhookUrl: `${receiver.url}/other` }));
});

afterAll(async () => {
  await receiver.close();
});

/** A message as the relay leaves it: dead after failures, delivered, or still retrying. */
async function message(state: "dead" | "delivered" | "retrying" | "no-webhook", tenantId = HOME, topic = "order.transitioned"): Promise<number> {
  const row = await one(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error, next_attempt_at, delivered_at)
     VALUES ($1, $2, jsonb_build_object('tenantId', $1::text, 'orderNo', 'R-1', 'n', $3::text),
             $4, $5, $6, now() + interval '1 hour', CASE WHEN $4 = 'delivered' THEN now() END)
     RETURNING id`,
    [
      tenantId,
      topic,
      randomUUID(),
      state === "dead" ? "dead" : state === "retrying" ? "pending" : "delivered",
      state === "dead" ? 15 : state === "retrying" ? 3 : state === "delivered" ? 1 : 0,
      state === "dead" || state === "retrying" ? "HTTP 503: refused" : state === "no-webhook" ? NO_WEBHOOK : null,
    ],
  );
  return row.id;
}

const stateRow = z.object({ status: z.string(), attempts: z.number(), lastError: z.string().nullable(), due: z.boolean() });
const stateOf = (id: number) =>
  one(getPool(), stateRow, `SELECT status, attempts, last_error AS "lastError", next_attempt_at <= now() AS due FROM outbox_messages WHERE id = $1`, [id]);
const countOf = async (table: "outbox_resends" | "audit_events", id: number) =>
  (
    await one(
      getPool(),
      z.object({ n: z.number() }),
      table === "outbox_resends"
        ? `SELECT count(*)::int AS n FROM outbox_resends WHERE message_id = $1`
        : `SELECT count(*)::int AS n FROM audit_events WHERE action = 'webhook.resent' AND target = 'outbox:' || $1::text`,
      [id],
    )
  ).n;

const input = (id: number, requestKey = randomUUID()) => ({ tenantId: HOME, messageId: id, actor: "staff:ops@example.com", reason: "game server lost it", requestKey });

describe("resendMessage", () => {
  it("makes a dead message pending and due, with its attempts from 0, and audits who and why in the same transaction", async () => {
    const id = await message("dead");
    expect(await resendMessage(input(id))).toEqual({ result: "resent", messageId: id, was: "dead" });
    expect(await stateOf(id)).toEqual({ status: "pending", attempts: 0, lastError: null, due: true });
    const fact = await one(
      getPool(),
      z.object({ actor: z.string(), tenantId: z.string(), detail: z.record(z.string(), z.unknown()) }),
      `SELECT actor, tenant_id AS "tenantId", detail FROM audit_events WHERE action = 'webhook.resent' AND target = $1`,
      [`outbox:${id}`],
    );
    expect(fact).toEqual({ actor: "staff:ops@example.com", tenantId: HOME, detail: { messageId: id, topic: "order.transitioned", was: "dead", attemptsBefore: 15, reason: "game server lost it" } });
  });

  it("the relay then sends the same message — the same x-orderops-message-id — and it is delivered, its attempt logged", async () => {
    const id = await message("delivered");
    expect((await resendMessage(input(id))).result).toBe("resent");
    const before = receiver.requests.length;
    for (let i = 0; i < 20 && (await stateOf(id)).status === "pending"; i++) await relayOutbox({ batchSize: 100 });
    expect(await stateOf(id)).toMatchObject({ status: "delivered", attempts: 1, lastError: null });
    const sent = receiver.requests.slice(before).filter((r) => r.headers[MESSAGE_ID_HEADER] === String(id));
    expect(sent).toHaveLength(1);
    const { n } = await one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM outbox_attempts WHERE message_id = $1 AND status = 200`, [id]);
    expect(n).toBe(1);
  });

  it("a double click (the same request key twice) resends once", async () => {
    const id = await message("dead");
    const key = randomUUID();
    expect((await resendMessage(input(id, key))).result).toBe("resent");
    expect(await resendMessage(input(id, key))).toEqual({ result: "duplicate", messageId: id });
    expect(await countOf("outbox_resends", id)).toBe(1);
    expect(await countOf("audit_events", id)).toBe(1);
  });

  it("20 concurrent calls with one key resend once; 20 with different keys resend once and find it on its way", async () => {
    const same = await message("dead");
    const key = randomUUID();
    const a = await Promise.allSettled(Array.from({ length: 20 }, () => resendMessage(input(same, key))));
    const results = a.map((s) => (s.status === "fulfilled" ? s.value.result : `error: ${String(s.reason)}`));
    expect(results.filter((r) => r === "resent")).toHaveLength(1);
    expect(results.filter((r) => r === "duplicate")).toHaveLength(19);
    expect(await countOf("audit_events", same)).toBe(1);

    const other = await message("dead");
    const b = await Promise.allSettled(Array.from({ length: 20 }, () => resendMessage(input(other))));
    const outcomes = b.map((s) => (s.status === "fulfilled" ? s.value.result : `error: ${String(s.reason)}`));
    expect(outcomes.filter((r) => r === "resent")).toHaveLength(1);
    expect(outcomes.filter((r) => r === "on-its-way")).toHaveLength(19);
    expect(await countOf("outbox_resends", other)).toBe(1);
    expect(await countOf("audit_events", other)).toBe(1);
  });

  it("two web processes sending the same click resend once", { timeout: 60_000 }, async () => {
    const id = await message("dead");
    const key = randomUUID();
    // Each process warms its pool and says "ready"; both are told "go" at once, so their calls race.
    const start = () => {
      const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/test/resend-process.ts"], {
        cwd: process.cwd(),
        env: { ...process.env, LOG_LEVEL: "silent", RESEND_TENANT: HOME, RESEND_MESSAGE: String(id), RESEND_KEYS: Array(5).fill(key).join(",") },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const ready = new Promise<void>((resolve) => child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()).startsWith("ready\n") && resolve()));
      const results = new Promise<string[]>((resolve, reject) =>
        child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out.slice("ready\n".length).trim()) as string[]) : reject(new Error(`exit ${code}: ${err}`)))),
      );
      return { child, ready, results };
    };
    const processes = [start(), start()];
    await Promise.all(processes.map((p) => p.ready));
    for (const p of processes) p.child.stdin.end("go\n");
    const [first, second] = await Promise.all(processes.map((p) => p.results));
    const all = [...first!, ...second!];
    expect(all).toHaveLength(10);
    expect(all.filter((r) => r === "resent")).toHaveLength(1);
    expect(all.filter((r) => r === "duplicate")).toHaveLength(9);
    expect(await countOf("outbox_resends", id)).toBe(1);
    expect(await countOf("audit_events", id)).toBe(1);
  });

  it("refuses a message on its way (retrying) and a store's answer, changing nothing", async () => {
    const retrying = await message("retrying");
    expect(await resendMessage(input(retrying))).toEqual({ result: "on-its-way", messageId: retrying, delivery: "retrying" });
    expect(await stateOf(retrying)).toMatchObject({ status: "pending", attempts: 3 });
    const answer = await message("dead", HOME, "store.refund-review-answer");
    expect((await resendMessage(input(answer))).result).toBe("not-a-webhook");
    expect(await stateOf(answer)).toMatchObject({ status: "dead" });
    expect(await countOf("audit_events", retrying)).toBe(0);
    expect(await countOf("audit_events", answer)).toBe(0);
  });

  it("a message never sent for want of a webhook may be sent once one is set", async () => {
    const id = await message("no-webhook");
    expect(await resendMessage(input(id))).toMatchObject({ result: "resent", was: "no-webhook" });
  });
});

describe("the resend action", () => {
  it("checks the permission, the reason and the message's tenant", async () => {
    const id = await message("dead");
    const foreign = await message("dead", OTHER);
    signInAs("agent", [HOME]);
    expect(await resendAction({ messageId: id, reason: "game server lost it", requestKey: randomUUID() })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    signInAs("ops", [HOME]);
    expect(await resendAction({ messageId: id, reason: "x", requestKey: randomUUID() })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    // Another tenant's message is missing, exactly like one that does not exist, and is left alone.
    expect(await resendAction({ messageId: foreign, reason: "game server lost it", requestKey: randomUUID() })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await stateOf(foreign)).toMatchObject({ status: "dead" });
    expect(await resendAction({ messageId: id, reason: "game server lost it", requestKey: randomUUID() })).toMatchObject({ ok: true, data: { result: "resent" } });
    signInAs("admin", [HOME]);
    const again = await message("delivered");
    expect(await resendAction({ messageId: again, reason: "integrator asked", requestKey: randomUUID() })).toMatchObject({ ok: true, data: { result: "resent" } });
  });
});

afterAll(async () => {
  await execute(getPool(), `UPDATE outbox_messages SET status = 'dead' WHERE status = 'pending'`);
});
