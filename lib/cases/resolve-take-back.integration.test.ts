// Retrying a failed take-back from its case (lib/cases/resolve-take-back.ts), on a real database and
// against a real local receiver standing in for the game: the row is owed again, the worker's call
// goes through and resolves the case; duplicates, roles, rows that are not failed and concurrent
// retries change nothing more than one retry would.
import { randomUUID } from "node:crypto";
import { afterEach, afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { translator } from "@/lib/i18n/translator";
import { runTakeBackCalls, TAKE_BACK_ACTOR, type TakeBackCallReport } from "@/lib/jobs/take-back-calls";
import { NO_GRANT_ENDPOINT, NO_REVOKE_ENDPOINT } from "@/lib/orders/take-back";
import { startReceiver, type Receiver } from "@/lib/jobs/test-receiver";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { describeCase } from "./describe-case";
import { takeBackCaseKey } from "./model";
import { loadOrderCases } from "./queries/order-cases";
import { resolveTakeBackCase, type TakeBackResolveInput } from "./resolve-take-back";

useFreshDatabase();

const CONNECTED = "rtb-connected";
/** No revoke endpoint, no grant endpoint. */
const UNCONNECTED = "rtb-unconnected";
const OPS = "staff:ops@example.com";
const MANAGER = "staff:manager@example.com";
const NOTHING: TakeBackCallReport = { claimed: 0, done: 0, retrying: 0, failed: 0, stale: 0 };

let receiver: Receiver;
/** The status the game answers (the receiver records every request first). */
let status = 200;

beforeAll(async () => {
  receiver = await startReceiver(() => status);
  for (const spec of [
    tenantSpec(CONNECTED, { deliveryMode: "managed", grantEndpointUrl: `${receiver.url}/grants`, revokeEndpointUrl: `${receiver.url}/revoke` }),
    tenantSpec(UNCONNECTED, { deliveryMode: "managed" }),
  ]) {
    await ensureTenant(getPool(), spec);
  }
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  status = 200;
  receiver.requests.length = 0;
});

// A test that leaves a row owed lets the game take it now, so the next test's job runs see only
// their own rows.
afterEach(async () => {
  status = 200;
  while ((await run()).claimed > 0);
});

const run = (options: Parameters<typeof runTakeBackCalls>[0] = {}) => runTakeBackCalls({ random: () => 0, ...options });

interface Failed {
  readonly takeBackId: number;
  readonly orderId: number;
  readonly caseId: number;
}

let grants = 0;

/**
 * A take_backs row (rule revoke) the job made `failed`, and the case it filed: on CONNECTED the game
 * refused its one allowed call; on UNCONNECTED there was nothing to call.
 */
async function failedTakeBack(tenantId: string, units = -60): Promise<Failed> {
  const order = await createOrder(getPool(), { tenantId, lines: [{ sku: "gems-60", kind: "currency", quantity: 60 }] });
  const grantId = `${units < 0 ? "refund" : "reinstate"}:R-${++grants}`;
  const { id } = await one(
    getPool(),
    z.object({ id: z.number() }),
    `INSERT INTO take_backs (tenant_id, order_id, player_id, sku, kind, grant_id, units, rule, status, next_attempt_at)
     VALUES ($1, $2, $3, 'gems-60', 'currency', $4, $5, 'revoke', 'pending', now()) RETURNING id`,
    [tenantId, order.id, order.playerId, grantId, units],
  );
  status = 500;
  expect(await run({ maxAttempts: 1 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
  status = 200;
  // The test counts the calls it causes itself.
  receiver.requests.length = 0;
  const { caseId } = await one(getPool(), z.object({ caseId: z.number() }), `SELECT id AS "caseId" FROM order_exceptions WHERE biz_key = $1`, [takeBackCaseKey(id)]);
  return { takeBackId: id, orderId: order.id, caseId };
}

const rowState = (id: number) =>
  one(
    getPool(),
    z.object({ status: z.string(), attempts: z.number(), lastError: z.string().nullable(), due: z.boolean().nullable() }),
    `SELECT status, attempts, last_error AS "lastError", next_attempt_at <= now() AS due FROM take_backs WHERE id = $1`,
    [id],
  );

const readCase = (id: number) =>
  one(
    getPool(),
    z.object({
      status: z.string(),
      owner: z.string().nullable(),
      resolution: z.string().nullable(),
      resolutionKey: z.string().nullable(),
      resolvedBy: z.string().nullable(),
      resolvedReason: z.string().nullable(),
    }),
    `SELECT status, owner, resolution, resolution_key AS "resolutionKey", resolved_by AS "resolvedBy", resolved_reason AS "resolvedReason"
     FROM order_exceptions WHERE id = $1`,
    [id],
  );

const factRow = z.object({ actor: z.string(), action: z.string(), target: z.string().nullable(), detail: z.record(z.string(), z.unknown()) });

/** The facts a person's retry writes, and the worker's, of one order: oldest first. */
const facts = (orderId: number) =>
  rows(
    getPool(),
    factRow,
    `SELECT actor, action, target, detail FROM audit_events WHERE order_id = $1 AND (action LIKE 'take-back.%' OR action LIKE 'case.%') ORDER BY id`,
    [orderId],
  );

/** The case's offers as the console shows them to a viewer. */
async function offersFor(f: Failed, tenantId: string, viewer: { actor: string; role: "agent" | "ops" | "manager" }) {
  const views = await loadOrderCases(tenantId, f.orderId, viewer);
  const view = views.find((v) => v.id === f.caseId);
  return view?.controls.offers;
}

const retry = (f: Failed, over: Partial<TakeBackResolveInput> = {}) =>
  resolveTakeBackCase({ caseId: f.caseId, actor: OPS, role: "ops", offer: "retry-take-back", reason: "the game was down for maintenance", requestKey: randomUUID(), ...over });

const problemOf = (settled: PromiseSettledResult<unknown>) =>
  settled.status === "rejected" ? (settled.reason instanceof AppError ? settled.reason.problem : String(settled.reason)) : null;

describe("retrying a failed take-back from its case", () => {
  it("makes the row owed again under the case; the worker's successful call resolves the case as take-back-done", async () => {
    const f = await failedTakeBack(CONNECTED);
    expect(await rowState(f.takeBackId)).toEqual({ status: "failed", attempts: 1, lastError: "HTTP 500: refused", due: null });
    expect(await offersFor(f, CONNECTED, { actor: OPS, role: "ops" })).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: true }]);

    const requestKey = randomUUID();
    expect(await retry(f, { requestKey })).toEqual({ result: "retrying", takeBackId: f.takeBackId, endpoint: "revoke", endpointSet: true });

    // Owed and due now, its budget afresh; why it failed stays until the next attempt says otherwise.
    expect(await rowState(f.takeBackId)).toEqual({ status: "pending", attempts: 0, lastError: "HTTP 500: refused", due: true });
    expect(await readCase(f.caseId)).toEqual({ status: "in-progress", owner: OPS, resolution: "retry-take-back", resolutionKey: requestKey, resolvedBy: null, resolvedReason: null });
    expect(await facts(f.orderId)).toEqual([
      expect.objectContaining({ actor: TAKE_BACK_ACTOR, action: "take-back.failed" }),
      { actor: OPS, action: "case.resolving", target: `case:${f.caseId}`, detail: expect.objectContaining({ resolution: "retry-take-back", reason: "the game was down for maintenance", takeBackId: f.takeBackId }) },
      {
        actor: OPS,
        action: "take-back.retried",
        target: `take-back:${f.takeBackId}`,
        detail: {
          takeBackId: f.takeBackId,
          caseId: f.caseId,
          sku: "gems-60",
          units: -60,
          rule: "revoke",
          attemptsBefore: 1,
          lastError: "HTTP 500: refused",
          endpoint: "revoke",
          endpointSet: true,
          reason: "the game was down for maintenance",
          requestKey,
        },
      },
    ]);
    // Owed already: nothing more to offer but a manager's dismissal.
    expect(await offersFor(f, CONNECTED, { actor: OPS, role: "ops" })).toEqual([]);
    expect(await offersFor(f, CONNECTED, { actor: MANAGER, role: "manager" })).toEqual([{ kind: "dismiss" }]);

    // The worker calls the game, which takes the goods back.
    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });
    expect(receiver.requests.map((r) => r.path)).toEqual(["/revoke"]);
    expect(await rowState(f.takeBackId)).toEqual({ status: "done", attempts: 1, lastError: null, due: null });
    expect(await readCase(f.caseId)).toMatchObject({ status: "resolved", owner: OPS, resolution: "take-back-done", resolvedBy: TAKE_BACK_ACTOR });
    expect((await facts(f.orderId)).map((x) => x.action)).toEqual(["take-back.failed", "case.resolving", "take-back.retried", "take-back.done", "case.resolved"]);

    // The form sent again after all that: the same submission, nothing changes.
    expect(await retry(f, { requestKey })).toEqual({ result: "duplicate", status: "resolved" });
    expect(await run()).toEqual(NOTHING);
  });

  it("the same submission twice is one retry, also after the row failed again and was retried by another submission", async () => {
    const f = await failedTakeBack(CONNECTED);
    const first = randomUUID();
    expect(await retry(f, { requestKey: first })).toMatchObject({ result: "retrying" });
    expect(await retry(f, { requestKey: first })).toEqual({ result: "duplicate", status: "in-progress" });
    // Sent at once, twice more: still the one retry.
    const twice = await Promise.all([retry(f, { requestKey: first }), retry(f, { requestKey: first })]);
    expect(twice).toEqual([
      { result: "duplicate", status: "in-progress" },
      { result: "duplicate", status: "in-progress" },
    ]);

    // The game refuses again: failed again, still the one case, the retry offered again to its owner.
    status = 500;
    expect(await run({ maxAttempts: 1 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    expect(await rowState(f.takeBackId)).toMatchObject({ status: "failed", attempts: 1 });
    expect(await readCase(f.caseId)).toMatchObject({ status: "in-progress", owner: OPS, resolution: "retry-take-back" });
    expect(await offersFor(f, CONNECTED, { actor: OPS, role: "ops" })).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: true }]);
    // The first form once more, now that a retry is possible again: still a duplicate.
    expect(await retry(f, { requestKey: first })).toEqual({ result: "duplicate", status: "in-progress" });
    expect(await rowState(f.takeBackId)).toMatchObject({ status: "failed", attempts: 1 });

    // A new submission retries; it fails again; the first form, no longer the case's latest, is still a duplicate.
    const second = randomUUID();
    expect(await retry(f, { requestKey: second })).toMatchObject({ result: "retrying" });
    expect(await run({ maxAttempts: 1 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    expect(await readCase(f.caseId)).toMatchObject({ resolutionKey: second });
    expect(await retry(f, { requestKey: first })).toEqual({ result: "duplicate", status: "in-progress" });
    expect(await rowState(f.takeBackId)).toMatchObject({ status: "failed" });

    const retried = (await facts(f.orderId)).filter((x) => x.action === "take-back.retried");
    expect(retried.map((x) => x.detail.requestKey)).toEqual([first, second]);
    // One call per retry, none for the duplicates.
    expect(receiver.requests).toHaveLength(2);
  });

  it("an agent (no cases:work) is refused and nothing changes", async () => {
    const f = await failedTakeBack(CONNECTED);
    expect(await offersFor(f, CONNECTED, { actor: "staff:agent@example.com", role: "agent" })).toEqual([]);

    await expect(retry(f, { actor: "staff:agent@example.com", role: "agent" })).rejects.toMatchObject({ code: "forbidden" });

    expect(await rowState(f.takeBackId)).toEqual({ status: "failed", attempts: 1, lastError: "HTTP 500: refused", due: null });
    expect(await readCase(f.caseId)).toMatchObject({ status: "open", owner: null, resolution: null, resolutionKey: null });
    expect((await facts(f.orderId)).map((x) => x.action)).toEqual(["take-back.failed"]);
  });

  it("is neither offered nor taken while the row is not failed", async () => {
    for (const rowStatus of ["pending", "done"] as const) {
      const f = await failedTakeBack(CONNECTED);
      // Owed or done by some other way than this case (a case that outlived its row's failure).
      await getPool().query(`UPDATE take_backs SET status = $2, next_attempt_at = CASE WHEN $2 = 'pending' THEN now() + interval '1 hour' END WHERE id = $1`, [
        f.takeBackId,
        rowStatus,
      ]);
      expect(await offersFor(f, CONNECTED, { actor: OPS, role: "ops" })).toEqual([]);
      expect(await offersFor(f, CONNECTED, { actor: MANAGER, role: "manager" })).toEqual([{ kind: "dismiss" }]);

      await expect(retry(f)).rejects.toMatchObject({ code: "conflict", problem: { kind: "resolution-not-offered", resolution: "retry-take-back" } });
      await expect(retry(f, { actor: MANAGER, role: "manager" })).rejects.toMatchObject({ problem: { kind: "resolution-not-offered" } });

      expect(await rowState(f.takeBackId)).toMatchObject({ status: rowStatus, attempts: 1 });
      expect(await readCase(f.caseId)).toMatchObject({ status: "open", owner: null, resolution: null });
      expect((await facts(f.orderId)).map((x) => x.action)).toEqual(["take-back.failed"]);
      await getPool().query(`UPDATE take_backs SET status = 'done' WHERE id = $1`, [f.takeBackId]);
    }
  });

  it("without an endpoint: the retry is allowed and says so; the row fails again at once and the case stays with its owner", async () => {
    const take = await failedTakeBack(UNCONNECTED);
    const give = await failedTakeBack(UNCONNECTED, 40);
    expect(await rowState(take.takeBackId)).toEqual({ status: "failed", attempts: 0, lastError: NO_REVOKE_ENDPOINT, due: null });
    expect(await offersFor(take, UNCONNECTED, { actor: OPS, role: "ops" })).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: false }]);
    expect(await offersFor(give, UNCONNECTED, { actor: OPS, role: "ops" })).toEqual([{ kind: "retry-take-back", endpoint: "grant", endpointSet: false }]);

    expect(await retry(take)).toEqual({ result: "retrying", takeBackId: take.takeBackId, endpoint: "revoke", endpointSet: false });
    expect(await retry(give)).toEqual({ result: "retrying", takeBackId: give.takeBackId, endpoint: "grant", endpointSet: false });
    expect(await rowState(take.takeBackId)).toEqual({ status: "pending", attempts: 0, lastError: NO_REVOKE_ENDPOINT, due: true });

    expect(await run()).toEqual({ ...NOTHING, claimed: 2, failed: 2 });
    expect(receiver.requests).toHaveLength(0);
    expect(await rowState(give.takeBackId)).toEqual({ status: "failed", attempts: 0, lastError: NO_GRANT_ENDPOINT, due: null });
    const filed = await rows(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_exceptions WHERE order_id = ANY($1)`, [[take.orderId, give.orderId]]);
    expect(filed).toEqual([{ n: 2 }]);
    expect(await readCase(take.caseId)).toMatchObject({ status: "in-progress", owner: OPS, resolution: "retry-take-back" });
    expect(await offersFor(take, UNCONNECTED, { actor: OPS, role: "ops" })).toEqual([{ kind: "retry-take-back", endpoint: "revoke", endpointSet: false }]);
  });

  it("10 people retry one case at once: one retry takes effect, the other 9 hear who has the case", async () => {
    const f = await failedTakeBack(CONNECTED);
    const people = Array.from({ length: 10 }, (_, i) => `staff:ops${i}@example.com`);
    const settled = await Promise.allSettled(people.map((actor) => retry(f, { actor })));

    const done = settled.filter((s) => s.status === "fulfilled");
    expect(done.map((s) => s.value)).toEqual([{ result: "retrying", takeBackId: f.takeBackId, endpoint: "revoke", endpointSet: true }]);
    const { owner } = await readCase(f.caseId);
    expect(people).toContain(owner);
    expect(settled.filter((s) => s.status === "rejected").map(problemOf)).toEqual(Array(9).fill({ kind: "case-taken", owner: owner!.replace("staff:", "") }));
    expect((await facts(f.orderId)).map((x) => x.action)).toEqual(["take-back.failed", "case.resolving", "take-back.retried"]);
    expect(await rowState(f.takeBackId)).toMatchObject({ status: "pending", attempts: 0 });

    expect(await run()).toEqual({ ...NOTHING, claimed: 1, done: 1 });
    expect(receiver.requests).toHaveLength(1);
  });

  it("10 submissions of one person at once: one retry takes effect, the other 9 hear it is no longer offered", async () => {
    const f = await failedTakeBack(CONNECTED);
    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => retry(f)));

    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    expect(settled.filter((s) => s.status === "rejected").map(problemOf)).toEqual(Array(9).fill({ kind: "resolution-not-offered", resolution: "retry-take-back" }));
    expect((await facts(f.orderId)).filter((x) => x.action === "take-back.retried")).toHaveLength(1);
    expect(await readCase(f.caseId)).toMatchObject({ status: "in-progress", owner: OPS });
    expect(await rowState(f.takeBackId)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("after a retry that fails differently, the case shows the latest failure and every attempt, in both languages", async () => {
    const f = await failedTakeBack(CONNECTED);
    const shown = async () => (await loadOrderCases(CONNECTED, f.orderId, { actor: OPS, role: "ops" })).find((v) => v.id === f.caseId)!;
    const words = async () => {
      const { explanation } = await shown();
      return { en: describeCase(explanation, translator("en"), "en"), zh: describeCase(explanation, translator("zh"), "zh") };
    };
    expect((await shown()).explanation).toMatchObject({ kind: "take-back-failed", attempts: 1, failure: { kind: "http", status: 500 } });

    expect(await retry(f)).toMatchObject({ result: "retrying" });
    // Owed again, not yet called: still the failure it had, and the one attempt made.
    expect((await shown()).explanation).toMatchObject({ attempts: 1, failure: { kind: "http", status: 500 } });

    // The game now answers 503: failed again, differently. The case's detail still holds the first
    // failure; what it shows is the row's latest one and both attempts.
    status = 503;
    expect(await run({ maxAttempts: 1 })).toEqual({ ...NOTHING, claimed: 1, failed: 1 });
    expect(await rowState(f.takeBackId)).toMatchObject({ status: "failed", attempts: 1, lastError: "HTTP 503: refused" });
    const { detail } = await one(getPool(), z.object({ detail: z.record(z.string(), z.unknown()) }), `SELECT detail FROM order_exceptions WHERE id = $1`, [f.caseId]);
    expect(detail).toMatchObject({ attempts: 1, lastError: "HTTP 500: refused" });
    expect((await shown()).explanation).toMatchObject({ attempts: 2, failure: { kind: "http", status: 503 } });
    expect((await shown()).takeBack).toMatchObject({ status: "failed", attempts: 2, lastError: "HTTP 503: refused" });
    const { en, zh } = await words();
    expect(en).toContain("the revoke endpoint answered 503, 2 attempts.");
    expect(zh).toContain("收回接口返回 503，已尝试 2 次。");
    expect(receiver.requests).toHaveLength(1);
  });
});
