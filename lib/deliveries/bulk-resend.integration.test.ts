import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runBulkChunk } from "@/app/[locale]/(console)/bulk/actions/run-bulk-chunk";
import { startBulk } from "@/app/[locale]/(console)/bulk/actions/start-bulk";
import { previewBulkResend } from "@/app/[locale]/(console)/deliveries/actions/preview-bulk-resend";
import { runBulkResendChunk } from "@/app/[locale]/(console)/deliveries/actions/run-bulk-resend-chunk";
import { startBulkResend } from "@/app/[locale]/(console)/deliveries/actions/start-bulk-resend";
import { batchSummary } from "@/lib/bulk/batches";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { REVIEW_ANSWER_TOPIC } from "@/lib/outbox/answer-topic";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { previewResend, runResendChunk, startResendBatch } from "./bulk-resend";
import { MAX_RESEND_BATCH } from "./resend-limit";
import { resendMessage } from "./resend";

// Bulk resend (issue 27, item 2): every dead webhook message of a product since a time, previewed
// with its count, then resent as a bulk batch whose items each go through the single resend's rule.

useFreshDatabase();

const SINCE = new Date("2026-11-20T00:00:00Z");
const before = (minutes: number) => new Date(SINCE.getTime() - minutes * 60_000);
const after = (minutes: number) => new Date(SINCE.getTime() + minutes * 60_000);
const TENANTS = ["bulkre-home", "bulkre-other", "bulkre-skip", "bulkre-race", "bulkre-twin", "bulkre-big", "bulkre-auth"] as const;
const [HOME, OTHER, SKIP, RACE, TWIN, BIG, AUTH] = TENANTS;

beforeAll(async () => {
  for (const tenant of TENANTS) await ensureTenant(getPool(), tenantSpec(tenant, { webhookUrl: "http://127.0.0.1:9/hook" }));
});

type Kind = "dead" | "delivered" | "retrying";

/** A message as the relay leaves it, made at `at`. */
async function message(tenantId: string, at: Date, state: Kind = "dead", topic = "order.transitioned"): Promise<number> {
  const row = await one(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error, next_attempt_at, delivered_at, created_at)
     VALUES ($1, $2, jsonb_build_object('tenantId', $1::text, 'n', $3::text), $4, $5, $6, now() + interval '1 hour',
             CASE WHEN $4 = 'delivered' THEN now() END, $7)
     RETURNING id::int AS id`,
    [tenantId, topic, randomUUID(), state === "dead" ? "dead" : state === "retrying" ? "pending" : "delivered", state === "delivered" ? 1 : 15, state === "delivered" ? null : "HTTP 503", at],
  );
  return row.id;
}

async function deadMessages(tenantId: string, count: number, from = 1): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await message(tenantId, after(from + i)));
  return ids;
}

const stateRow = z.object({ id: z.number(), status: z.string(), attempts: z.number() });
const statesOf = (ids: readonly number[]) =>
  rows(getPool(), stateRow, `SELECT id::int AS id, status, attempts FROM outbox_messages WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids]);
const count = async (sql: string, values: unknown[]) => (await one(getPool(), z.object({ n: z.number() }), sql, values)).n;
const resendsOf = (ids: readonly number[]) => count(`SELECT count(*)::int AS n FROM outbox_resends WHERE message_id = ANY($1::bigint[])`, [ids]);
const resentFactsOf = (ids: readonly number[]) =>
  count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'webhook.resent' AND target = ANY($1::text[])`, [ids.map((id) => `outbox:${id}`)]);

const reason = "receiver was down all night";

/** Runs a batch until nothing is pending, as the page does. */
async function drain(batchId: string): Promise<void> {
  for (let round = 0; round < 200; round++) {
    const chunk = await runBulkResendChunk({ batchId });
    if (!chunk.ok) throw new Error(JSON.stringify(chunk.error));
    if (chunk.data.summary?.counts.pending === 0) return;
    if (chunk.data.handled === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`batch ${batchId} did not drain`);
}

describe("bulk resend", () => {
  it("previews the count and a sample of exactly the dead webhook messages of the product since the time", async () => {
    const dead = await deadMessages(HOME, 3);
    const older = await message(HOME, before(1));
    const delivered = await message(HOME, after(10), "delivered");
    const retrying = await message(HOME, after(11), "retrying");
    const answer = await message(HOME, after(12), "dead", REVIEW_ANSWER_TOPIC);
    const foreign = await deadMessages(OTHER, 2);

    signInAs("ops", [HOME, OTHER]);
    const previewed = await previewBulkResend({ tenant: HOME, since: SINCE.toISOString() });
    expect(previewed).toMatchObject({ ok: true, data: { count: 3 } });
    if (!previewed.ok) return;
    expect(previewed.data.sample.map((r) => r.id)).toEqual(dead);
    expect(previewed.data.batchId).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing was sent by looking.
    expect(await resendsOf([...dead, older, delivered, retrying, answer, ...foreign])).toBe(0);

    // The batch resends exactly those: a double submit (two clicks at once) is one batch.
    const start = () => startBulkResend({ batchId: previewed.data.batchId, tenant: HOME, since: SINCE.toISOString(), reason });
    const [first, second] = await Promise.all([start(), start()]);
    expect(first).toMatchObject({ ok: true, data: { total: 3 } });
    expect(second).toMatchObject({ ok: true, data: { total: 3 } });
    expect(await count(`SELECT count(*)::int AS n FROM bulk_batches WHERE id = $1 AND kind = 'resend'`, [previewed.data.batchId])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM bulk_batch_items WHERE batch_id = $1`, [previewed.data.batchId])).toBe(3);

    await drain(previewed.data.batchId);
    expect((await batchSummary(previewed.data.batchId))?.counts).toEqual({ pending: 0, applied: 3, "nothing-to-do": 0, refused: 0, failed: 0 });
    expect(await statesOf(dead)).toEqual(dead.map((id) => ({ id, status: "pending", attempts: 0 })));
    expect(await resendsOf(dead)).toBe(3);
    expect(await resentFactsOf(dead)).toBe(3);
    // Older, not dead, not a webhook, another product: untouched.
    expect(await statesOf([older, answer, ...foreign])).toEqual([older, answer, ...foreign].map((id) => ({ id, status: "dead", attempts: 15 })));
    expect(await statesOf([delivered, retrying])).toEqual([
      { id: delivered, status: "delivered", attempts: 1 },
      { id: retrying, status: "pending", attempts: 15 },
    ]);
    expect(await resendsOf([older, delivered, retrying, answer, ...foreign])).toBe(0);
    // Audited: the start, once per submit (the second a rerun), and the finish once.
    expect(await count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'bulk.finished' AND target = $1`, [`bulk:${previewed.data.batchId}`])).toBe(1);
    const reasons = await rows(getPool(), z.object({ reason: z.string() }), `SELECT reason FROM outbox_resends WHERE message_id = ANY($1::bigint[])`, [dead]);
    expect(reasons.map((r) => r.reason)).toEqual(dead.map(() => `bulk resend ${previewed.data.batchId}: ${reason}`));
  });

  it("skips, and counts, a message resent by someone else after the batch started", async () => {
    const dead = await deadMessages(SKIP, 4);
    const batchId = randomUUID();
    await startResendBatch({ batchId, tenantId: SKIP, since: SINCE, reason, actor: "staff:ops@example.com" });
    expect(await resendMessage({ tenantId: SKIP, messageId: dead[1]!, actor: "staff:other@example.com", reason: "one by hand", requestKey: randomUUID() })).toMatchObject({ result: "resent" });
    while ((await runResendChunk({ batchId, actor: "staff:ops@example.com" })) > 0);
    expect((await batchSummary(batchId))?.counts).toEqual({ pending: 0, applied: 3, "nothing-to-do": 1, refused: 0, failed: 0 });
    // Each message resent once: three by the batch, one by hand.
    expect(await resendsOf(dead)).toBe(4);
    // A second batch over the same time now finds nothing dead.
    expect(await previewResend({ tenantId: SKIP, since: SINCE })).toEqual({ count: 0, sample: [] });
  });

  it("resends each message once when several runners work one batch at the same time", async () => {
    const dead = await deadMessages(RACE, 30);
    const batchId = randomUUID();
    await startResendBatch({ batchId, tenantId: RACE, since: SINCE, reason, actor: "staff:ops@example.com" });
    const runner = async () => {
      let handled = 0;
      for (;;) {
        const n = await runResendChunk({ batchId, actor: "staff:ops@example.com", limit: 5 });
        handled += n;
        const summary = await batchSummary(batchId);
        if (summary?.counts.pending === 0) return handled;
        if (n === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const handled = await Promise.all([runner(), runner(), runner(), runner()]);
    expect(handled.reduce((a, b) => a + b, 0)).toBe(30);
    expect((await batchSummary(batchId))?.counts).toEqual({ pending: 0, applied: 30, "nothing-to-do": 0, refused: 0, failed: 0 });
    expect(await resendsOf(dead)).toBe(30);
    expect(await resentFactsOf(dead)).toBe(30);
    expect(await count(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'bulk.finished' AND target = $1`, [`bulk:${batchId}`])).toBe(1);
  });

  it("resends each message once when two batches (two people's previews) cover the same messages at the same time", async () => {
    const dead = await deadMessages(TWIN, 20);
    signInAs("ops", [TWIN]);
    const ids = [randomUUID(), randomUUID()];
    const started = await Promise.all(ids.map((batchId) => startBulkResend({ batchId, tenant: TWIN, since: SINCE.toISOString(), reason })));
    expect(started.map((s) => s.ok)).toEqual([true, true]);
    await Promise.all(ids.map((batchId) => drain(batchId)));
    const summaries = await Promise.all(ids.map((batchId) => batchSummary(batchId)));
    const applied = summaries.reduce((sum, s) => sum + (s?.counts.applied ?? 0), 0);
    const skipped = summaries.reduce((sum, s) => sum + (s?.counts["nothing-to-do"] ?? 0), 0);
    expect(applied).toBe(20);
    expect(skipped).toBe(20);
    expect(await resendsOf(dead)).toBe(20);
    expect(await resentFactsOf(dead)).toBe(20);
  });

  it("refuses more than one batch's worth of messages, with nothing written", async () => {
    await getPool().query(
      `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error, next_attempt_at, created_at)
       SELECT $1, 'order.transitioned', jsonb_build_object('n', g), 'dead', 15, 'HTTP 503', now(), $2::timestamptz + g * interval '1 second'
       FROM generate_series(1, $3::int) g`,
      [BIG, SINCE, MAX_RESEND_BATCH + 1],
    );
    signInAs("ops", [BIG]);
    expect(await previewBulkResend({ tenant: BIG, since: SINCE.toISOString() })).toMatchObject({ ok: true, data: { count: MAX_RESEND_BATCH + 1 } });
    const batchId = randomUUID();
    expect(await startBulkResend({ batchId, tenant: BIG, since: SINCE.toISOString(), reason })).toMatchObject({
      ok: false,
      error: { code: "invalid-input", problem: { kind: "resend-too-large", max: MAX_RESEND_BATCH } },
    });
    expect(await count(`SELECT count(*)::int AS n FROM bulk_batches WHERE id = $1`, [batchId])).toBe(0);
  });

  it("checks the permission, the tenant scope, the reason and the batch's kind on the server", async () => {
    const dead = await deadMessages(AUTH, 2);
    const since = SINCE.toISOString();
    signInAs("agent", [AUTH]);
    expect(await previewBulkResend({ tenant: AUTH, since })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await startBulkResend({ batchId: randomUUID(), tenant: AUTH, since, reason })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    signInAs("ops", [HOME]);
    expect(await previewBulkResend({ tenant: AUTH, since })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await startBulkResend({ batchId: randomUUID(), tenant: AUTH, since, reason })).toMatchObject({ ok: false, error: { code: "not-found" } });
    signInAs("ops", [AUTH]);
    expect(await startBulkResend({ batchId: randomUUID(), tenant: AUTH, since, reason: "x" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await previewBulkResend({ tenant: AUTH, since: "yesterday-ish" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await resendsOf(dead)).toBe(0);

    const batchId = randomUUID();
    expect(await startBulkResend({ batchId, tenant: AUTH, since, reason })).toMatchObject({ ok: true });
    // Another person of another product cannot run it; the compensation runner does not know it.
    signInAs("ops", [HOME]);
    expect(await runBulkResendChunk({ batchId })).toMatchObject({ ok: false, error: { code: "not-found" } });
    signInAs("ops", [AUTH]);
    expect(await runBulkChunk({ batchId })).toMatchObject({ ok: false, error: { code: "not-found" } });
    // Nor does the resend runner know a compensation batch.
    const compensation = randomUUID();
    expect(await startBulk({ batchId: compensation, tenant: AUTH, orderNos: ["NO-SUCH-ORDER"], reason })).toMatchObject({ ok: true });
    expect(await runBulkResendChunk({ batchId: compensation })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await resendsOf(dead)).toBe(0);
    await drain(batchId);
    expect(await resendsOf(dead)).toBe(2);
  });
});
