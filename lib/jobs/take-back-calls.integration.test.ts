import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadOrderCases } from "@/lib/cases/queries/order-cases";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { NO_GRANT_ENDPOINT, NO_REVOKE_ENDPOINT } from "@/lib/orders/take-back";
import { useFreshDatabase } from "@/lib/test/database";
import type { GrantRequest } from "./delivery-call";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "./signature";
import {
  claimTakeBacks,
  runTakeBackCalls,
  TAKE_BACK_ACTOR,
  takeBackCallId,
  type RevokeRequest,
  type TakeBackCallReport,
} from "./take-back-calls";
import { startReceiver, type ReceivedRequest, type Receiver } from "./test-receiver";

useFreshDatabase();

const CONNECTED = "tb-connected";
/** No revoke endpoint, no grant endpoint. */
const UNCONNECTED = "tb-unconnected";
const NOTHING: TakeBackCallReport = { claimed: 0, done: 0, retrying: 0, failed: 0, stale: 0 };

let receiver: Receiver;
/** The status the game answers; every request is recorded by the receiver first. */
let respond: (request: ReceivedRequest) => number | Promise<number>;
const secrets: Record<string, string> = {};
let badSignatures = 0;

beforeAll(async () => {
  receiver = await startReceiver((request) => {
    const body = JSON.parse(request.body) as { tenantId: string };
    const signed = verifySignature({
      secret: secrets[body.tenantId] ?? "",
      signature: request.headers[SIGNATURE_HEADER] as string,
      timestamp: request.headers[TIMESTAMP_HEADER] as string,
      body: request.body,
    });
    if (!signed) {
      badSignatures++;
      return 401;
    }
    return respond(request);
  });
  const pool = getPool();
  for (const spec of [
    tenantSpec(CONNECTED, { deliveryMode: "managed", grantEndpointUrl: `${receiver.url}/grants`, revokeEndpointUrl: `${receiver.url}/revoke` }),
    tenantSpec(UNCONNECTED, { deliveryMode: "managed" }),
  ]) {
    await ensureTenant(pool, spec);
    const { secret } = await one(pool, z.object({ secret: z.string() }), `SELECT signing_secret AS secret FROM tenant_settings WHERE tenant_id = $1`, [spec.id]);
    secrets[spec.id] = secret;
  }
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  respond = () => 200;
  badSignatures = 0;
  receiver.requests.length = 0;
});

interface Row {
  readonly id: number;
  readonly orderId: number;
  readonly orderNo: string;
  readonly playerId: string;
  readonly sku: string;
  readonly grantId: string;
  readonly units: number;
}

/** A pending take_backs row (rule revoke) on a real order, as write-ledger.ts leaves it. */
async function pendingRow(tenantId: string, spec: { readonly units: number; readonly grantId: string; readonly sku?: string }): Promise<Row> {
  const sku = spec.sku ?? "gems-60";
  const order = await createOrder(getPool(), { tenantId, lines: [{ sku, kind: "currency", quantity: 60 }] });
  const { id } = await one(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO take_backs (tenant_id, order_id, player_id, sku, kind, grant_id, units, rule, status, next_attempt_at)
     VALUES ($1, $2, $3, $4, 'currency', $5, $6, 'revoke', 'pending', now()) RETURNING id`,
    [tenantId, order.id, order.playerId, sku, spec.grantId, spec.units],
  );
  return { id, orderId: order.id, orderNo: order.orderNo, playerId: order.playerId, sku, grantId: spec.grantId, units: spec.units };
}

const stateRow = z.object({
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  due: z.boolean().nullable(),
});

function rowState(id: number) {
  return one(
    getPool(),
    stateRow,
    `SELECT status, attempts, last_error AS "lastError", next_attempt_at <= now() AS due FROM take_backs WHERE id = $1`,
    [id],
  );
}

/** The backoff has passed: the row is due again (the job's clock is the database's, so time is moved on the row). */
async function backoffPassed(id: number): Promise<void> {
  await getPool().query(`UPDATE take_backs SET next_attempt_at = now() - interval '1 second' WHERE id = $1 AND status = 'pending'`, [id]);
}

const factRow = z.object({ actor: z.string(), action: z.string(), target: z.string().nullable(), tenantId: z.string().nullable(), detail: z.record(z.string(), z.unknown()) });

function facts(orderId: number) {
  return rows(
    getPool(),
    factRow,
    `SELECT actor, action, target, tenant_id AS "tenantId", detail FROM audit_events WHERE order_id = $1 AND action LIKE 'take-back.%' ORDER BY id`,
    [orderId],
  );
}

const caseRow = z.object({
  kind: z.string(),
  bizKey: z.string(),
  actor: z.string(),
  status: z.string(),
  detail: z.record(z.string(), z.unknown()),
  resolution: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  slaSeconds: z.number(),
});

/** Every case filed on the order, of any kind. */
function cases(orderId: number) {
  return rows(
    getPool(),
    caseRow,
    `SELECT kind, biz_key AS "bizKey", actor, status, detail, resolution, resolved_by AS "resolvedBy",
            extract(epoch FROM sla_due_at - created_at)::int AS "slaSeconds"
     FROM order_exceptions WHERE order_id = $1 ORDER BY id`,
    [orderId],
  );
}

/** What a retry does to a failed row (lib/cases/resolve-take-back.ts, from its case): owed and due again. */
async function retryFailed(id: number): Promise<void> {
  await getPool().query(`UPDATE take_backs SET status = 'pending', next_attempt_at = now() - interval '1 second' WHERE id = $1 AND status = 'failed'`, [id]);
}

const calls = (path: string) => receiver.requests.filter((r) => r.path === path);
const run = (options: Parameters<typeof runTakeBackCalls>[0] = {}) => runTakeBackCalls({ random: () => 0, ...options });

describe("takeBackCallId", () => {
  it("is the ledger grant_id, then orderNo and sku with their ':' escaped, so no two rows share one", () => {
    expect(takeBackCallId({ grantId: "refund:R-1", orderNo: "T1", sku: "gems-60" })).toBe("refund:R-1:T1:gems-60");
    expect(takeBackCallId({ grantId: "reinstate:K", orderNo: "T1", sku: "gems-60" })).toBe("reinstate:K:T1:gems-60");
    // Unescaped, these two would both be "refund:a:b:c:d".
    const one = takeBackCallId({ grantId: "refund:a", orderNo: "b:c", sku: "d" });
    const two = takeBackCallId({ grantId: "refund:a:b", orderNo: "c", sku: "d" });
    expect(one).not.toBe(two);
    expect(takeBackCallId({ grantId: "refund:a", orderNo: "b%3Ac", sku: "d" })).not.toBe(one);
  });
});

describe("runTakeBackCalls", () => {
  it("revoke: one signed call to the revoke endpoint with the expected body, then done with its audit fact", async () => {
    const row = await pendingRow(CONNECTED, { units: -60, grantId: "refund:R-100" });

    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });

    expect(receiver.requests).toHaveLength(1);
    expect(calls("/revoke")).toHaveLength(1);
    expect(badSignatures).toBe(0);
    const revocationId = `refund:R-100:${row.orderNo}:gems-60`;
    const expected: RevokeRequest = { tenantId: CONNECTED, orderNo: row.orderNo, playerId: row.playerId, sku: "gems-60", kind: "currency", quantity: 60, revocationId };
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual(expected);
    expect(await rowState(row.id)).toEqual({ status: "done", attempts: 1, lastError: null, due: null });
    const [fact, ...more] = await facts(row.orderId);
    expect(more).toEqual([]);
    expect(fact).toMatchObject({
      actor: TAKE_BACK_ACTOR,
      action: "take-back.done",
      target: `take-back:${row.id}`,
      tenantId: CONNECTED,
      detail: { takeBackId: row.id, sku: "gems-60", units: -60, rule: "revoke", endpoint: "revoke", revocationId, attempts: 1 },
    });

    // Done is done: nothing more is owed.
    expect(await run()).toEqual(NOTHING);
    expect(receiver.requests).toHaveLength(1);
  });

  it("a game failing twice, then answering: backs off, retries with the same revocationId, done after 3 calls", async () => {
    const row = await pendingRow(CONNECTED, { units: -5, grantId: "refund:R-200" });
    let answered = 0;
    respond = () => (++answered <= 2 ? 503 : 200);

    expect(await run()).toEqual({ ...NOTHING, claimed: 1, retrying: 1 });
    expect(await rowState(row.id)).toEqual({ status: "pending", attempts: 1, lastError: "HTTP 503: refused", due: false });
    // Not due before its backoff has passed.
    expect(await run()).toEqual(NOTHING);
    expect(receiver.requests).toHaveLength(1);

    await backoffPassed(row.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, retrying: 1 });
    expect(await rowState(row.id)).toMatchObject({ status: "pending", attempts: 2, due: false });

    await backoffPassed(row.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });
    expect(await rowState(row.id)).toEqual({ status: "done", attempts: 3, lastError: null, due: null });

    expect(receiver.requests).toHaveLength(3);
    const ids = receiver.requests.map((r) => (JSON.parse(r.body) as RevokeRequest).revocationId);
    expect(ids).toEqual(Array(3).fill(`refund:R-200:${row.orderNo}:gems-60`));
    // Retries write no audit facts; the outcome writes one.
    expect((await facts(row.orderId)).map((f) => f.action)).toEqual(["take-back.done"]);
  });

  it("a game that keeps refusing: failed after the last allowed attempt, with the error in its audit fact", async () => {
    const row = await pendingRow(CONNECTED, { units: -5, grantId: "refund:R-250" });
    respond = () => 500;

    expect(await run({ maxAttempts: 2 })).toEqual({ ...NOTHING, claimed: 1, retrying: 1 });
    await backoffPassed(row.id);
    expect(await run({ maxAttempts: 2 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });

    expect(await rowState(row.id)).toEqual({ status: "failed", attempts: 2, lastError: "HTTP 500: refused", due: null });
    expect(receiver.requests).toHaveLength(2);
    expect(await facts(row.orderId)).toMatchObject([{ action: "take-back.failed", detail: { attempts: 2, error: "HTTP 500: refused" } }]);
    // One case for ops, filed with the last outcome (the retry before it filed none).
    expect(await cases(row.orderId)).toEqual([
      {
        kind: "take-back-failed",
        bizKey: `take-back:${row.id}`,
        actor: TAKE_BACK_ACTOR,
        status: "open",
        detail: {
          takeBackId: row.id,
          sku: "gems-60",
          units: -5,
          rule: "revoke",
          ledgerGrantId: "refund:R-250",
          endpoint: "revoke",
          revocationId: `refund:R-250:${row.orderNo}:gems-60`,
          attempts: 2,
          lastError: "HTTP 500: refused",
        },
        resolution: null,
        resolvedBy: null,
        slaSeconds: 4 * 3_600,
      },
    ]);
    expect(await run({ maxAttempts: 2 })).toEqual(NOTHING);
    expect(await cases(row.orderId)).toHaveLength(1);
  });

  it("no endpoint configured: failed at once, no call, an audit fact saying why", async () => {
    const revoke = await pendingRow(UNCONNECTED, { units: -60, grantId: "refund:R-300" });
    const giveBack = await pendingRow(UNCONNECTED, { units: 60, grantId: "reinstate:K-300" });

    expect(await run()).toEqual({ ...NOTHING, claimed: 2, failed: 2 });

    expect(receiver.requests).toHaveLength(0);
    expect(await rowState(revoke.id)).toEqual({ status: "failed", attempts: 0, lastError: NO_REVOKE_ENDPOINT, due: null });
    expect(await rowState(giveBack.id)).toEqual({ status: "failed", attempts: 0, lastError: NO_GRANT_ENDPOINT, due: null });
    expect(await facts(revoke.orderId)).toMatchObject([
      { actor: TAKE_BACK_ACTOR, action: "take-back.failed", tenantId: UNCONNECTED, detail: { error: NO_REVOKE_ENDPOINT, revocationId: `refund:R-300:${revoke.orderNo}:gems-60` } },
    ]);
    expect(await facts(giveBack.orderId)).toMatchObject([{ action: "take-back.failed", detail: { error: NO_GRANT_ENDPOINT } }]);

    // Exactly one open case per row, saying what was not taken (or given) back and why.
    const revocationId = `refund:R-300:${revoke.orderNo}:gems-60`;
    expect(await cases(revoke.orderId)).toEqual([
      {
        kind: "take-back-failed",
        bizKey: `take-back:${revoke.id}`,
        actor: TAKE_BACK_ACTOR,
        status: "open",
        detail: { takeBackId: revoke.id, sku: "gems-60", units: -60, rule: "revoke", ledgerGrantId: "refund:R-300", endpoint: "revoke", revocationId, attempts: 0, lastError: NO_REVOKE_ENDPOINT },
        resolution: null,
        resolvedBy: null,
        slaSeconds: 4 * 3_600,
      },
    ]);
    const grantId = `reinstate:K-300:${giveBack.orderNo}:gems-60`;
    expect(await cases(giveBack.orderId)).toMatchObject([
      { kind: "take-back-failed", bizKey: `take-back:${giveBack.id}`, status: "open", detail: { units: 60, endpoint: "grant", grantId, attempts: 0, lastError: NO_GRANT_ENDPOINT } },
    ]);
    // As the console reads it: the job's "no endpoint" errors are understood, not shown raw.
    const [revokeCase] = await loadOrderCases(UNCONNECTED, revoke.orderId, null);
    expect(revokeCase?.explanation).toEqual({ kind: "take-back-failed", direction: "take", sku: "gems-60", units: 60, rule: "revoke", attempts: 0, failure: { kind: "no-endpoint" }, callId: revocationId });
    const [giveBackCase] = await loadOrderCases(UNCONNECTED, giveBack.orderId, null);
    expect(giveBackCase?.explanation).toMatchObject({ direction: "give", units: 60, failure: { kind: "no-endpoint" }, callId: grantId });

    // The job again: failed rows are not called, and file nothing more.
    expect(await run()).toEqual(NOTHING);
    // Retried and failed again: still the one case.
    await retryFailed(revoke.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    expect(await cases(revoke.orderId)).toMatchObject([{ kind: "take-back-failed", status: "open" }]);
    expect((await facts(revoke.orderId)).map((f) => f.action)).toEqual(["take-back.failed", "take-back.failed"]);
  });

  it("a failed row done after all: its case resolves by itself, with an audit fact", async () => {
    const row = await pendingRow(CONNECTED, { units: -7, grantId: "refund:R-350" });
    respond = () => 500;
    expect(await run({ maxAttempts: 1 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    expect(await cases(row.orderId)).toMatchObject([{ kind: "take-back-failed", status: "open" }]);

    await retryFailed(row.id);
    respond = () => 200;
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });

    expect(await rowState(row.id)).toMatchObject({ status: "done", attempts: 2, lastError: null });
    expect(await cases(row.orderId)).toMatchObject([{ kind: "take-back-failed", status: "resolved", resolution: "take-back-done", resolvedBy: TAKE_BACK_ACTOR }]);
    const resolved = await rows(
      getPool(),
      factRow,
      `SELECT actor, action, target, tenant_id AS "tenantId", detail FROM audit_events WHERE order_id = $1 AND action = 'case.resolved'`,
      [row.orderId],
    );
    expect(resolved).toMatchObject([{ actor: TAKE_BACK_ACTOR, tenantId: CONNECTED, detail: { kind: "take-back-failed", resolution: "take-back-done", takeBackId: row.id } }]);
  });

  it("a dismissed case stays dismissed when its row is done after all", async () => {
    const row = await pendingRow(CONNECTED, { units: -2, grantId: "refund:R-360" });
    respond = () => 500;
    expect(await run({ maxAttempts: 1 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    await getPool().query(
      `UPDATE order_exceptions SET status = 'dismissed', resolved_at = now(), resolved_by = 'staff:boss@example.com', resolved_reason = 'taken back by hand'
       WHERE order_id = $1`,
      [row.orderId],
    );
    await retryFailed(row.id);
    respond = () => 200;
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });
    expect(await cases(row.orderId)).toMatchObject([{ status: "dismissed", resolution: null, resolvedBy: "staff:boss@example.com" }]);
  });

  it("the case is filed in the row's transaction: if it cannot be, the row is not failed either", async () => {
    const row = await pendingRow(UNCONNECTED, { units: -4, grantId: "refund:R-370" });
    const pool = getPool();
    await pool.query(`CREATE FUNCTION refuse_case() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no cases today'; END; $$`);
    await pool.query(`CREATE TRIGGER refuse_case BEFORE INSERT ON order_exceptions FOR EACH ROW WHEN (NEW.kind = 'take-back-failed') EXECUTE FUNCTION refuse_case()`);
    try {
      await expect(run()).rejects.toThrow(/no cases today/);
    } finally {
      await pool.query(`DROP TRIGGER refuse_case ON order_exceptions`);
      await pool.query(`DROP FUNCTION refuse_case()`);
    }
    expect(await rowState(row.id)).toMatchObject({ status: "pending", attempts: 0, lastError: null });
    expect(await facts(row.orderId)).toEqual([]);
    expect(await cases(row.orderId)).toEqual([]);

    // Once filing works again, the next run after the lease fails the row and files its case.
    await backoffPassed(row.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    expect(await cases(row.orderId)).toMatchObject([{ kind: "take-back-failed", status: "open" }]);
  });

  it("give-back after a reversed refund: one signed grant call with the reinstate grantId, then done", async () => {
    const row = await pendingRow(CONNECTED, { units: 40, grantId: "reinstate:K-400" });

    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });

    expect(calls("/grants")).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    expect(badSignatures).toBe(0);
    const grantId = `reinstate:K-400:${row.orderNo}:gems-60`;
    const expected: GrantRequest = { tenantId: CONNECTED, orderNo: row.orderNo, playerId: row.playerId, sku: "gems-60", kind: "currency", quantity: 40, grantId };
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual(expected);
    expect(await rowState(row.id)).toMatchObject({ status: "done", attempts: 1 });
    expect(await facts(row.orderId)).toMatchObject([{ action: "take-back.done", detail: { endpoint: "grant", grantId, units: 40 } }]);
  });

  it("two workers on 20 pending rows: exactly 20 calls in all, none twice", async () => {
    const pending = await Promise.all(Array.from({ length: 20 }, (_, i) => pendingRow(CONNECTED, { units: -(i + 1), grantId: `refund:R-5${String(i).padStart(2, "0")}` })));
    // A slow game keeps each worker's calls in flight while the other claims.
    respond = async () => {
      await delay(15);
      return 200;
    };
    const second = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 5 });
    const drain = async (pool: pg.Pool): Promise<number> => {
      let done = 0;
      for (;;) {
        const report = await run({ pool, batchSize: 3, concurrency: 2 });
        expect(report.stale).toBe(0);
        done += report.done;
        if (report.claimed === 0) return done;
      }
    };
    try {
      const results = await Promise.allSettled([drain(getPool()), drain(second)]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
      const [a, b] = results.map((r) => (r.status === "fulfilled" ? r.value : 0));
      expect(a! + b!).toBe(20);
      // Both took part: otherwise this did not race.
      expect(a).toBeGreaterThan(0);
      expect(b).toBeGreaterThan(0);
    } finally {
      await second.end();
    }

    expect(receiver.requests).toHaveLength(20);
    const ids = receiver.requests.map((r) => (JSON.parse(r.body) as RevokeRequest).revocationId);
    expect(new Set(ids)).toEqual(new Set(pending.map((p) => takeBackCallId(p))));
    for (const row of pending) expect(await rowState(row.id)).toMatchObject({ status: "done", attempts: 1 });
    const doneFacts = await rows(
      getPool(),
      z.object({ n: z.number() }),
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'take-back.done' AND order_id = ANY($1)`,
      [pending.map((p) => p.orderId)],
    );
    expect(doneFacts).toEqual([{ n: 20 }]);
  });

  it("claims fired at once never hand out one row twice", async () => {
    const pending = await Promise.all(Array.from({ length: 20 }, (_, i) => pendingRow(CONNECTED, { units: -1, grantId: `refund:R-8${String(i).padStart(2, "0")}` })));

    const claims = await Promise.allSettled(Array.from({ length: 10 }, () => claimTakeBacks(getPool(), { batchSize: 4, leaseMs: 60_000 })));

    const ids = claims.flatMap((c) => (c.status === "fulfilled" ? c.value.map((row) => row.id) : []));
    expect(claims.every((c) => c.status === "fulfilled")).toBe(true);
    expect(ids).toHaveLength(20);
    expect(new Set(ids)).toEqual(new Set(pending.map((p) => p.id)));

    // The leases run out; the rows are worked off like any others (and leave nothing due for the next test).
    for (const row of pending) await backoffPassed(row.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 20, done: 20 });
  });

  it("a crashed worker's claim: not called while its lease holds, called once after", async () => {
    const row = await pendingRow(CONNECTED, { units: -3, grantId: "refund:R-600" });
    // The worker that claimed it died before calling.
    const [crashed] = await claimTakeBacks(getPool(), { batchSize: 10, leaseMs: 60_000 });
    expect(crashed?.id).toBe(row.id);

    expect(await run()).toEqual(NOTHING);
    expect(receiver.requests).toHaveLength(0);

    // The lease ran out.
    await backoffPassed(row.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });
    expect(receiver.requests).toHaveLength(1);
    expect(await rowState(row.id)).toMatchObject({ status: "done", attempts: 1 });
    expect(await facts(row.orderId)).toHaveLength(1);
  });

  it("a worker that overran its lease: its late outcome is dropped; the row goes by the worker that holds it now", async () => {
    const row = await pendingRow(CONNECTED, { units: -3, grantId: "refund:R-700" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The first call hangs (then succeeds), the second is refused, the third succeeds.
    respond = async () => {
      const n = receiver.requests.length;
      if (n === 1) await gate;
      return n === 2 ? 503 : 200;
    };

    const slow = run({ leaseMs: 1 });
    await expect.poll(() => receiver.requests.length).toBe(1);
    await expect.poll(async () => (await rowState(row.id)).due).toBe(true);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, retrying: 1 });
    release();
    // Its success would end a row another worker is now responsible for: dropped, not recorded.
    expect(await slow).toEqual({ ...NOTHING, claimed: 1, stale: 1 });
    expect(await rowState(row.id)).toEqual({ status: "pending", attempts: 1, lastError: "HTTP 503: refused", due: false });
    expect(await facts(row.orderId)).toEqual([]);

    await backoffPassed(row.id);
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });
    // At least once, with the same revocationId every time: the game takes back once.
    expect(receiver.requests.map((r) => (JSON.parse(r.body) as RevokeRequest).revocationId)).toEqual(Array(3).fill(`refund:R-700:${row.orderNo}:gems-60`));
    expect(await rowState(row.id)).toMatchObject({ status: "done", attempts: 2 });
    expect(await facts(row.orderId)).toHaveLength(1);
  });
});
