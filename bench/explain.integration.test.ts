// The six console queries the large-data benchmark times (bench/queries.ts) must read the big
// tables through an index — checked here on every `npm test`, not once by eye. The plans come from
// the statements the app's query functions really send (captured, with their parameters) on a
// database seeded by the bulk seeder and ANALYZEd, so the planner sees realistic statistics; no
// planner setting is changed. 20,000 orders (over 100,000 transitions) are enough that a
// sequential scan of orders or order_transitions is never the cheap choice for a query that reads
// one page or looks up a few rows — which is the property that holds at a million.
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { auditPageQuery, listAuditRows } from "@/lib/audit/queries/audit-rows";
import type { AuditFilters, AuditPosition } from "@/lib/audit/queries/filters";
import { securityPageQuery } from "@/lib/audit/queries/security-rows";
import { CASE_FILTERS } from "@/lib/cases/filters";
import { loadCaseQueue } from "@/lib/cases/queries/case-queue";
import { caseCounts } from "@/lib/cases/queries/case-counts";
import { unsentRefundCounts } from "@/lib/cases/queries/unsent-refunds";
import { getPool } from "@/lib/db/pool";
import { preparedStatements } from "@/lib/db/sql";
import "@/lib/api/keys";
import "@/lib/read/order-version";
import "@/lib/presence/order-presence";
import { grant } from "@/lib/orders/grant";
import { transit, transitWithHistory } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { seedDemo } from "@/lib/seed/demo/seed-demo";
import { useFreshDatabase } from "@/lib/test/database";
import { captureStatements, explain, judgePlan, planNodes, type PlanNode, type Statement } from "./lib/capture";
import { seedOutboxMessages } from "./lib/outbox-messages";
import { CONSOLE_QUERIES, SCOPE, sampleInputs, type QueryInputs } from "./queries";

useFreshDatabase();

const ORDERS = 20_000;
let inputs: QueryInputs;

beforeAll(async () => {
  const pool = getPool();
  await seedDemo(pool, { orders: ORDERS, seed: 11, history: "dense" });
  await seedAuditFacts();
  // The deliveries page's (issue 27): enough messages that a scan of the outbox is never the cheap choice.
  await seedOutboxMessages(pool, 30_000);
  // seedDemo ANALYZEs what it wrote; VACUUM as autovacuum would, so index-only scans are costed as in production.
  await pool.query(`VACUUM ANALYZE orders, order_transitions, order_exceptions, order_lines, grants, order_notes, audit_events`);
  inputs = await sampleInputs(pool, 3);
  // Seeding 20,000 orders and the outbox takes most of a minute; on a machine shared with other runs, more.
}, 240_000);

describe("console queries read orders and order_transitions through indexes", () => {
  it.each(CONSOLE_QUERIES.filter((q) => q.targeted).map((q) => [q.title, q] as const))("%s", async (_title, query) => {
    const pool = getPool();
    for (let n = 0; n < 3; n++) {
      const { statements } = await captureStatements(pool, () => query.run(inputs, n));
      // The orders list's row estimate is itself an EXPLAIN: it reads no rows.
      const measured = statements.filter((s) => !/^\s*EXPLAIN/i.test(s.text));
      expect(measured.length).toBeGreaterThan(0);
      const indexes: string[] = [];
      for (const statement of measured) {
        const verdict = judgePlan(await explain(pool, statement));
        expect(verdict.seqScans, statement.text).toEqual([]);
        indexes.push(...verdict.indexes);
      }
      expect(indexes.length, `no index on orders or order_transitions was read by ${query.key}`).toBeGreaterThan(0);
    }
  });

  it("the statements are the app's own: a lookup by order no finds that order", async () => {
    const query = CONSOLE_QUERIES.find((q) => q.key === "order-no")!;
    const result = (await query.run(inputs, 0)) as { rows: { orderNo: string }[] };
    expect(result.rows.map((r) => r.orderNo)).toContain(inputs.orders[0]!.orderNo);
  });
});

// ---------------------------------------------------------------------------------------------
// The audit explorer and the security log read four logs: transitions, grants, notes and
// audit_events. Each must come through an index in index order, for every filter the pages offer.

/** The demo seed writes no notes and no staff actions: some of each, as a console in use has. */
async function seedAuditFacts(): Promise<void> {
  const pool = getPool();
  await pool.query(
    `INSERT INTO order_notes (tenant_id, order_id, author, body, created_at)
     SELECT tenant_id, id, CASE WHEN id % 3 = 0 THEN 'staff:ops@example.com' ELSE 'staff:agent@example.com' END,
            'player ' || player_id || ' called about ' || order_no, created_at + interval '1 hour'
     FROM orders WHERE id % 4 = 0`,
  );
  await pool.query(
    `INSERT INTO audit_events (tenant_id, order_id, actor, action, target, detail, created_at)
     SELECT tenant_id, id, 'staff:manager@example.com', 'approval.approved', 'approval:' || id, '{"reason":"ok"}', created_at + interval '2 hours'
     FROM orders WHERE id % 10 = 0`,
  );
  await pool.query(
    `INSERT INTO audit_events (tenant_id, actor, action, target, ip, detail, created_at)
     SELECT NULL, 'anonymous', 'sign-in.failed', 'user' || (n % 40) || '@example.com', '10.0.' || (n % 250) || '.1', '{"why":"wrong-password"}',
            now() - n * interval '1 minute'
     FROM generate_series(1, 20000) n`,
  );
}

const AUDIT_LOGS = new Set(["order_transitions", "grants", "order_notes", "audit_events"]);

/** Sequential scans of the logs (or of orders), and the indexes the logs were read through. */
function judgeAuditPlan(plan: PlanNode) {
  const nodes = planNodes(plan);
  const onLog = (n: PlanNode) =>
    (n["Relation Name"] !== undefined && (AUDIT_LOGS.has(n["Relation Name"]) || n["Relation Name"] === "orders")) ||
    (n["Index Name"] !== undefined && [...AUDIT_LOGS].some((t) => n["Index Name"]!.startsWith(`${t}_`)));
  return {
    seqScans: nodes.filter((n) => n["Node Type"] === "Seq Scan" && onLog(n)).map((n) => `Seq Scan on ${n["Relation Name"]}`),
    logIndexes: nodes.filter((n) => n["Index Name"] !== undefined && onLog(n)).map((n) => n["Index Name"]!),
  };
}

/**
 * The statement a page read sends: captured from the pool when it runs there (and checked to be the
 * builder's); time-bounded reads run on a transaction's connection, so those come from the builder.
 */
async function auditStatement(filters: AuditFilters, position: AuditPosition = {}): Promise<Statement> {
  const built = auditPageQuery({ scope: SCOPE, filters, position, limit: 50 })!;
  if (built.timeout) return { text: built.text, values: built.values };
  const { statements } = await captureStatements(getPool(), () => listAuditRows({ scope: SCOPE, filters, position, limit: 50 }));
  expect(statements.map((x) => x.text)).toEqual([built.text]);
  return statements[0]!;
}

describe("audit explorer and security log statements read every log through an index", () => {
  const deep = (): AuditPosition => ({ after: { ...inputs.deepCursors[0]!, log: "transition" } });
  const cases: [string, () => Promise<Statement>][] = [
    ["explorer, first page", () => auditStatement({})],
    ["explorer, deep page", () => auditStatement({}, deep())],
    ["explorer, actor", () => auditStatement({ actor: "staff:ops@example.com" })],
    ["explorer, actor, deep page", () => auditStatement({ actor: "staff:ops@example.com" }, deep())],
    ["explorer, order", () => auditStatement({ order: inputs.orders[0]!.orderNo })],
    ["explorer, grants with a source and a time range", () => auditStatement({ kind: "grant", source: "api", from: new Date("2020-01-01T00:00:00Z") })],
    ["explorer, approvals", () => auditStatement({ kind: "approval" })],
    ["explorer, note text", () => auditStatement({ text: "called about" })],
    ["explorer, note text, deep page", () => auditStatement({ text: "called about" }, deep())],
    ["security log, first page", async () => securityPageQuery({ scope: SCOPE, filters: {}, limit: 50 })],
    ["security log, sign-ins of a person", async () => securityPageQuery({ scope: SCOPE, filters: { action: "sign-in", who: "user7@example.com" }, limit: 50 })],
  ];

  it.each(cases)("%s", async (_title, statementOf) => {
    const statement = await statementOf();
    const verdict = judgeAuditPlan(await explain(getPool(), statement));
    expect(verdict.seqScans, statement.text).toEqual([]);
    expect(verdict.logIndexes.length, statement.text).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// The case queue (issue 13): every filter, and the overview's counts, read the active cases
// through their partial indexes. At this size order_exceptions holds a few hundred rows — a page or
// fifty — and a sequential scan of it is the planner's right answer; what has to hold at a million
// orders (tens of thousands of cases, measured by the large-data benchmark) is that every statement
// has a path through the case indexes. So these plans are taken with sequential scans priced out,
// on a connection of their own (the settings above are not touched).

describe("case queue statements read the active cases through their partial indexes", () => {
  const viewer = { actor: "staff:ops@example.com", role: "ops" } as const;
  const CASE_INDEXES = ["order_exceptions_active_due_idx", "order_exceptions_active_owner_idx"];
  const calls: [string, () => Promise<unknown>][] = [
    ...CASE_FILTERS.map((filter) => [`queue, ${filter}`, () => loadCaseQueue(SCOPE, { filter, viewer })] as [string, () => Promise<unknown>]),
    ["overview counts", () => caseCounts(SCOPE)],
    // Issue 29: refunds that have not reached the channel, reached through the active cases.
    ["overview unsent refunds", () => unsentRefundCounts(SCOPE)],
  ];

  it("the seed has active cases, some of them ops', to plan for", async () => {
    const { rows } = await getPool().query<{ active: number; mine: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('open', 'in-progress'))::int AS active, count(*) FILTER (WHERE owner = $1 AND status = 'in-progress')::int AS mine FROM order_exceptions`,
      [viewer.actor],
    );
    expect(rows[0]!.active).toBeGreaterThan(100);
    expect(rows[0]!.mine).toBeGreaterThan(10);
  });

  it.each(calls)("%s", async (_title, call) => {
    const { statements } = await captureStatements(getPool(), call);
    expect(statements.length).toBeGreaterThan(0);
    const client = await getPool().connect();
    try {
      await client.query("SET enable_seqscan = off");
      for (const statement of statements) {
        const nodes = planNodes(await explain(client, statement));
        const scanned = nodes.filter((n) => n["Node Type"] === "Seq Scan" && ["order_exceptions", "orders", "order_transitions", "payment_refunds"].includes(n["Relation Name"] ?? ""));
        expect(scanned.map((n) => n["Relation Name"]), statement.text).toEqual([]);
        expect(nodes.some((n) => CASE_INDEXES.includes(n["Index Name"] ?? "")), statement.text).toBe(true);
      }
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The payment path's prepared statements (lib/db/sql.ts): after five runs PostgreSQL may keep a
// generic plan, made without the parameters' values. Each must still go straight to its order's
// rows then — through an index whose condition names the order (not merely some index: a generic
// plan once read transit's duplicate check through (tenant_id, event, created_at), every pay of the
// tenant). Planned here with the generic plan forced, on a connection of its own.

describe("the payment path's prepared statements reach their order's rows under a generic plan", () => {
  /** What an index scan of each table must be keyed by. */
  const KEYED_BY: Record<string, RegExp> = {
    orders: /\(id = |order_no = /,
    order_transitions: /order_id = /,
    // The presence poll's rows: by their order, never a scan of every open tab.
    order_presence: /order_id = /,
    order_lines: /order_id = /,
    grants: /order_id = /,
  };

  it.each(preparedStatements().map((s) => [s.name, s] as const))("%s", async (_name, statement) => {
    const client = await getPool().connect();
    try {
      await client.query("SET plan_cache_mode = force_generic_plan");
      await client.query(`PREPARE generic AS ${statement.text}`);
      const parameters = Math.max(...[...statement.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) EXECUTE generic(${Array.from({ length: parameters }, () => "NULL").join(", ")})`,
      );
      const reads = planNodes(rows[0]!["QUERY PLAN"][0].Plan).filter((n) => n["Node Type"].endsWith("Scan") && KEYED_BY[n["Relation Name"] ?? ""] !== undefined);
      const unkeyed = reads.filter((n) => !KEYED_BY[n["Relation Name"]!]!.test(n["Index Cond"] ?? ""));
      expect(unkeyed.map((n) => `${n["Node Type"]} on ${n["Relation Name"]} ${n["Index Name"] ?? ""} ${n["Index Cond"] ?? ""}`), statement.text).toEqual([]);
    } finally {
      await client.query("DEALLOCATE ALL");
      await client.query("RESET plan_cache_mode");
      client.release();
    }
  });

  it("covers every statement of transit and grant and the API key lookups", () => {
    expect(preparedStatements().map((s) => s.name)).toEqual(
      expect.arrayContaining(["order.lock", "transit.facts()", "transit.facts(history)", "transit.write", "grant.facts", "grant.write", "api-key.caller", "api-key.caller-and-order", "read.order-version", "presence.heartbeat", "presence.leave"]),
    );
  });
});

// A prepared statement only saves its planning once PostgreSQL keeps a generic plan, which it does
// after five runs unless a custom plan looks much cheaper — as one whose parts were switched on by
// parameters always did, so transit's facts statement was planned again on every pay.
describe("the payment path's prepared statements keep a generic plan", () => {
  it("after a few pays and grants on one connection, every statement they ran has gone generic", async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      const tenantId = "generic-plans";
      await pool.query(`INSERT INTO tenants (id, name, currency) VALUES ($1, $1, 'CNY') ON CONFLICT DO NOTHING`, [tenantId]);
      const by = { actor: "channel:test", source: "callback", amount: 6_00 } as const;
      for (let i = 0; i < 8; i++) {
        const [a, b] = [await createOrder(pool, { tenantId, amount: 6_00 }), await createOrder(pool, { tenantId, amount: 6_00 })];
        expect((await transit({ orderId: a.id, event: "pay", bizKey: `a-${i}`, ...by }, pool)).result).toBe("applied");
        expect((await transitWithHistory({ orderId: b.id, event: "pay", bizKey: `b-${i}`, ...by }, pool)).result.result).toBe("applied");
        expect((await grant({ orderId: b.id, sku: "gems-60", quantity: 1, grantId: `g-${i}`, ...by }, pool)).result).toBe("applied");
      }
      const { rows } = await pool.query<{ name: string; generic: number; custom: number }>(
        `SELECT name, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements ORDER BY name`,
      );
      expect(rows.map((r) => r.name)).toEqual(["grant.facts", "grant.write", "order.lock", "transit.facts()", "transit.facts(history)", "transit.write"]);
      expect(rows.filter((r) => r.generic === 0)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
