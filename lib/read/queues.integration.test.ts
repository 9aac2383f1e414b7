import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one, rows } from "@/lib/db/sql";
import type { OrderState } from "@/lib/orders/machine";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { CASE_FILTERS, type CaseFilter } from "@/lib/cases/filters";
import { loadQueues, QUEUE_STATES, type QueuesPageModel, type QueuesSnapshot, type QueueState } from "./queues";


useFreshDatabase();

// Three products; `gamma` mirrors `alpha` but is outside the scope. Times in state are whole
// multiples of 5 minutes plus 150 s, thresholds multiples of 5 minutes: no order sits on a boundary
// while the test runs. Expected queues come from a plain model of the same rows.

const MINUTE = 60;
const SCOPE = ["alpha", "beta"];
const THRESHOLDS: Record<string, Partial<Record<OrderState, number>>> = {
  alpha: { created: 30 * MINUTE, paid: 10 * MINUTE, delivering: 20 * MINUTE, refunding: 600 * MINUTE },
  gamma: { created: 30 * MINUTE, paid: 10 * MINUTE, delivering: 20 * MINUTE, refunding: 600 * MINUTE },
  beta: { created: 15 * MINUTE, refunding: 300 * MINUTE },
};
const STATES: readonly OrderState[] = ["created", "paid", "delivering", "delivered", "refunding", "refunded", "closed"];

interface ModelOrder {
  id: number;
  tenantId: string;
  orderNo: string;
  state: OrderState;
  stateAgoMin: number;
}
interface ModelException {
  id: number;
  tenantId: string;
  orderNo: string | null;
  status: "open" | "in-progress" | "resolved";
  owner: string | null;
  ageMin: number;
}

const OPS = "staff:ops@example.com";
/** amount-mismatch is a money kind: due 4 hours after it was filed (the default SLA). */
const SLA_MIN = 240;

const orders: ModelOrder[] = [];
const exceptions: ModelException[] = [];

beforeAll(async () => {
  const pool = getPool();
  for (const id of ["alpha", "beta", "gamma"]) await ensureTenant(pool, tenantSpec(id, { maxDwellSeconds: THRESHOLDS[id]! }));
  // People edit settings: a threshold that is no number is no threshold (beta: no paid queue).
  await pool.query(`UPDATE tenant_settings SET max_dwell_seconds = max_dwell_seconds || '{"paid": "soon", "delivering": 0}' WHERE tenant_id = 'beta'`);

  const fixture: Omit<ModelOrder, "id">[] = [];
  for (const tenantId of ["alpha", "beta", "gamma"]) {
    for (let i = 1; i <= 400; i++) {
      // Repeating ages: orders tie on state_at, and the tie is broken by id.
      fixture.push({ tenantId, orderNo: `Q${i}`, state: STATES[i % 7]!, stateAgoMin: 5 * ((i * 11) % 300) });
    }
  }
  const inserted = await rows(
    pool,
    z.object({ id: z.number(), tenantId: z.string(), orderNo: z.string() }),
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state, state_at, created_at, updated_at)
     SELECT t, n, 'p-' || n, 600, 'CNY', s, now() - make_interval(mins => m) - interval '150 seconds', now() - interval '30 days', now()
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS x(t, n, s, m)
     RETURNING id, tenant_id AS "tenantId", order_no AS "orderNo"`,
    [fixture.map((r) => r.tenantId), fixture.map((r) => r.orderNo), fixture.map((r) => r.state), fixture.map((r) => r.stateAgoMin)],
  );
  const ids = new Map(inserted.map((r) => [`${r.tenantId}/${r.orderNo}`, r.id]));
  for (const row of fixture) orders.push({ ...row, id: ids.get(`${row.tenantId}/${row.orderNo}`)! });

  const exceptionRows: Omit<ModelException, "id">[] = [];
  for (const tenantId of ["alpha", "beta", "gamma"]) {
    for (let i = 1; i <= 30; i++) {
      const status = i % 4 === 0 ? "resolved" : i % 3 === 0 ? "in-progress" : "open";
      exceptionRows.push({
        tenantId,
        // Some facts could not be tied to any order.
        orderNo: i % 5 === 0 ? null : `Q${i}`,
        status,
        owner: status === "open" ? null : OPS,
        // Up to 395 minutes: some past the 4-hour SLA, none on its boundary.
        ageMin: 5 * ((i * 7) % 80) + 2,
      });
    }
  }
  const insertedExceptions = await rows(
    pool,
    z.object({ id: z.number() }),
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, event, biz_key, amount, actor, status, owner, created_at, resolved_at)
     SELECT x.t, o.id, 'amount-mismatch', 'pay', 'TX-' || x.ord, 500, 'channel:test', x.status, x.owner, now() - make_interval(mins => x.m),
            CASE WHEN x.status = 'resolved' THEN now() END
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[]) WITH ORDINALITY AS x(t, n, status, m, owner, ord)
     LEFT JOIN orders o ON o.tenant_id = x.t AND o.order_no = x.n
     ORDER BY x.ord
     RETURNING id`,
    [exceptionRows.map((r) => r.tenantId), exceptionRows.map((r) => r.orderNo), exceptionRows.map((r) => r.status), exceptionRows.map((r) => r.ageMin), exceptionRows.map((r) => r.owner)],
  );
  exceptionRows.forEach((row, i) => exceptions.push({ ...row, id: insertedExceptions[i]!.id }));
  await pool.query(`ANALYZE orders, order_exceptions`);
});

function expectedStuck(state: QueueState, scope: readonly string[] = SCOPE): string[] {
  return orders
    .filter((o) => scope.includes(o.tenantId) && o.state === state)
    .filter((o) => {
      const threshold = THRESHOLDS[o.tenantId]![state];
      return threshold !== undefined && o.stateAgoMin * MINUTE >= threshold;
    })
    // Oldest first: longest in the state, then by id.
    .sort((a, b) => b.stateAgoMin - a.stateAgoMin || a.id - b.id)
    .map((o) => `${o.tenantId}/${o.orderNo}`);
}

/** Active cases, most urgent first: due = filed + SLA, so the longest waiting first, then by id. */
function expectedCases(filter: CaseFilter = "all", scope: readonly string[] = SCOPE): number[] {
  const keep: Record<CaseFilter, (e: ModelException) => boolean> = {
    all: () => true,
    mine: (e) => e.owner === OPS,
    unassigned: (e) => e.owner === null,
    overdue: (e) => e.ageMin > SLA_MIN,
  };
  return exceptions
    .filter((e) => scope.includes(e.tenantId) && e.status !== "resolved" && keep[filter](e))
    .sort((a, b) => b.ageMin - a.ageMin || a.id - b.id)
    .map((e) => e.id);
}
const viewer = { actor: OPS, role: "ops" } as const;
const caseIds = (snapshot: QueuesSnapshot) => snapshot.cases.items.map((c) => c.id);

const stuckKeys = (snapshot: QueuesSnapshot, state: QueueState) => snapshot.stuck[state].items.map((o) => `${o.tenantId}/${o.orderNo}`);

describe("loadQueues", () => {
  it("stuck, per state: exactly the orders over their product's threshold, oldest first", async () => {
    const snapshot = await loadQueues(SCOPE, { limit: 1000 });
    for (const state of QUEUE_STATES) {
      const want = expectedStuck(state);
      expect(stuckKeys(snapshot, state), state).toEqual(want);
      expect(snapshot.stuck[state].total, state).toBe(want.length);
      for (const item of snapshot.stuck[state].items) {
        expect(item.state).toBe(state);
        expect(item.maxDwellSeconds).toBe(THRESHOLDS[item.tenantId]![state]);
        expect(item.secondsInState).toBeGreaterThan(item.maxDwellSeconds);
      }
    }
    // Sanity of the fixture: every queue has members from both products where both have thresholds.
    expect(expectedStuck("created").some((k) => k.startsWith("beta/"))).toBe(true);
    expect(expectedStuck("refunding").length).toBeGreaterThan(0);
  });

  it("a product without a usable threshold for a state has no queue for it", async () => {
    const snapshot = await loadQueues(["beta"], { limit: 1000 });
    expect(snapshot.stuck.paid).toEqual({ total: 0, more: false, items: [] });
    expect(snapshot.stuck.delivering).toEqual({ total: 0, more: false, items: [] });
    expect(snapshot.stuck.created.total).toBeGreaterThan(0);
  });

  it("refunding too long is the refunding queue: over the refunding threshold, oldest first", async () => {
    const snapshot = await loadQueues(SCOPE, { limit: 1000 });
    expect(stuckKeys(snapshot, "refunding")).toEqual(expectedStuck("refunding"));
    const ages = snapshot.stuck.refunding.items.map((o) => o.secondsInState);
    expect(ages).toEqual([...ages].sort((a, b) => b - a));
  });

  it("the case queue: active cases only, most urgent first, with or without an order; each filter exactly its cases", async () => {
    for (const filter of CASE_FILTERS) {
      const snapshot = await loadQueues(SCOPE, { limit: 1000, viewer, caseFilter: filter });
      expect(caseIds(snapshot), filter).toEqual(expectedCases(filter));
      for (const f of CASE_FILTERS) expect(snapshot.cases.counts[f], `${filter}: count of ${f}`).toEqual({ total: expectedCases(f).length, more: false });
    }
    for (const filter of ["mine", "unassigned", "overdue"] as const) expect(expectedCases(filter).length, filter).toBeGreaterThan(0);
    const snapshot = await loadQueues(SCOPE, { limit: 1000, viewer });
    const byId = new Map(exceptions.map((e) => [e.id, e]));
    for (const item of snapshot.cases.items) {
      expect(item.order?.orderNo ?? null).toBe(byId.get(item.id)!.orderNo);
      expect(item).toMatchObject({ kind: "amount-mismatch", event: "pay", amount: 500, currency: "CNY", owner: byId.get(item.id)!.owner });
      expect(item.dueInSeconds < 0).toBe(byId.get(item.id)!.ageMin > SLA_MIN);
      // Words, not codes: the explanation is data the console words; the viewer's controls are worked out.
      // (These rows carry no refusal: with an order the expected amount is the order's, without one it cannot be told.)
      expect(item.explanation).toEqual(
        item.order ? { kind: "amount-mismatch", paid: 500, expected: 600, currency: "CNY", txn: item.bizKey, accepted: false } : { kind: "other", caseKind: "amount-mismatch" },
      );
      expect(item.controls.assign).toBe(true);
    }
    expect(snapshot.cases.items.some((e) => e.order === null)).toBe(true);
  });

  it("each list is capped at the limit, with the full count beside it", async () => {
    const snapshot = await loadQueues(SCOPE, { limit: 5 });
    for (const state of QUEUE_STATES) {
      const want = expectedStuck(state);
      expect(stuckKeys(snapshot, state)).toEqual(want.slice(0, 5));
      expect(snapshot.stuck[state].total).toBe(want.length);
    }
    expect(caseIds(snapshot)).toEqual(expectedCases().slice(0, 5));
    expect(snapshot.cases.counts.all.total).toBe(expectedCases().length);
  });

  it("counts stop past the count limit and say so", async () => {
    const snapshot = await loadQueues(SCOPE, { limit: 3, countLimit: 10 });
    for (const state of QUEUE_STATES) {
      const want = expectedStuck(state);
      expect(snapshot.stuck[state], state).toMatchObject({ total: Math.min(want.length, 10), more: want.length > 10 });
      expect(stuckKeys(snapshot, state)).toEqual(want.slice(0, 3));
    }
    expect(expectedStuck("created").length).toBeGreaterThan(10);
    expect(snapshot.cases.counts.all).toEqual({ total: 10, more: true });
    const exact = await loadQueues(SCOPE, { countLimit: 10_000 });
    expect(exact.cases.counts.all).toEqual({ total: expectedCases().length, more: false });
  });

  it("never shows a tenant outside the scope", async () => {
    const snapshot = await loadQueues(SCOPE, { limit: 1000 });
    const tenants = new Set([
      ...QUEUE_STATES.flatMap((s) => snapshot.stuck[s].items.map((o) => o.tenantId)),
      ...snapshot.cases.items.map((e) => e.tenantId),
    ]);
    expect([...tenants].sort()).toEqual(["alpha", "beta"]);
    const none = await loadQueues([]);
    for (const state of QUEUE_STATES) expect(none.stuck[state]).toEqual({ total: 0, more: false, items: [] });
    expect(none.cases.items).toEqual([]);
    expect(none.cases.counts.all).toEqual({ total: 0, more: false });
  });

  it("is plain JSON, as the live view receives it", async () => {
    const snapshot = await loadQueues(SCOPE, { viewer });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(Date.parse(snapshot.asOf)).not.toBeNaN();
  });

  it("GET /api/console/queues answers the caller's own scope", async () => {
    const { GET } = await import("@/app/api/console/queues/route");
    signInAs("agent", ["beta"], { email: "agent@test" });
    const response = await GET(new NextRequest("http://localhost/api/console/queues"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const body = superjson.parse<QueuesPageModel>(await response.text());
    expect(stuckKeys(body, "created")).toEqual(expectedStuck("created", ["beta"]).slice(0, 50));
    expect(caseIds(body)).toEqual(expectedCases("all", ["beta"]));
    // An agent sees cases but works none of them.
    expect(body.cases.items.every((c) => !c.controls.take && c.controls.offers.length === 0)).toBe(true);
    signInAs("ops", ["beta"], { email: "ops@example.com" });
    const mine = await GET(new NextRequest("http://localhost/api/console/queues?cases=mine"), { params: Promise.resolve({}) });
    const ops = superjson.parse<QueuesPageModel>(await mine.text());
    expect(caseIds(ops)).toEqual(expectedCases("mine", ["beta"]));
    // What the case forms offer: who works cases of the caller's products, and the viewer.
    expect(ops.me).toBe("staff:ops@example.com");
    expect(ops.assignees.every((a) => a.tenantIds.includes("beta"))).toBe(true);
  });
});

describe("loadQueues: every statement reads through an index", () => {
  it("no sequential scan of orders or order_exceptions", async () => {
    const pool = getPool();
    const spy = vi.spyOn(pool, "query");
    await loadQueues(SCOPE, { viewer, caseFilter: "mine" });
    const statements = spy.mock.calls.map(([text, values]) => ({ text: text as unknown as string, values: values as unknown[] }));
    spy.mockRestore();
    expect(statements.length).toBe(4);
    const client = await pool.connect();
    try {
      // See search-orders.integration.test.ts: at this size only "is there an index path" is meaningful.
      await client.query("SET enable_seqscan = off");
      const used = new Set<string>();
      for (const { text, values } of statements) {
        const { "QUERY PLAN": [{ Plan: plan }] } = await one(client, explained, `EXPLAIN (FORMAT JSON) ${text}`, values);
        for (const node of flatten(plan)) {
          if (node["Relation Name"] === "orders" || node["Relation Name"] === "order_exceptions") {
            expect(node["Node Type"], `${node["Relation Name"]}`).not.toBe("Seq Scan");
          }
          if (node["Index Name"]) used.add(node["Index Name"]);
        }
      }
      expect(used).toContain("orders_tenant_id_state_state_at_idx");
      expect(used).toContain("order_exceptions_active_owner_idx");
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

const planNode: z.ZodType<PlanNode> = z.lazy(() =>
  z.object({ "Node Type": z.string(), "Relation Name": z.string().optional(), "Index Name": z.string().optional(), Plans: z.array(planNode).optional() }),
);
const explained = z.object({ "QUERY PLAN": z.tuple([z.object({ Plan: planNode })]) });

function flatten(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(flatten)];
}
