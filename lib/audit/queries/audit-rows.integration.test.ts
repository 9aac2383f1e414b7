import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { SOURCES } from "@/lib/orders/machine";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { actorSummary } from "./actor-summary";
import { auditPageQuery, listAuditRows, type AuditRow } from "./audit-rows";
import type { AuditCursor } from "./cursor";
import { parseAuditSearch, type AuditFilters, type AuditPosition } from "./filters";
import { tenantChoices } from "./tenant-choices";

useFreshDatabase();

// ---------------------------------------------------------------------------------------------
// Plans: enough rows (and fresh statistics) that the planner's choice is the one production gets.

const BULK = ["bulk-a", "bulk-b", "bulk-c"];
const ORDERS_PER_TENANT = 2_000;
const TRANSITIONS_PER_ORDER = 10;

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

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function planOf(scope: readonly string[], filters: AuditFilters, position: AuditPosition = {}): Promise<PlanNode[]> {
  const query = auditPageQuery({ scope, filters, position, limit: 50 });
  if (!query) throw new Error("no query");
  const { "QUERY PLAN": [{ Plan: plan }] } = await one(getPool(), explained, `EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
  return nodes(plan);
}

/** A position deep in the tenant's history: the row `depth` rows from the newest. */
async function deepCursor(tenant: string, depth: number, actor?: string): Promise<AuditCursor> {
  const { at, id } = await one(
    getPool(),
    z.object({ at: z.string(), id: z.number() }),
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id FROM order_transitions
     WHERE tenant_id = $1 AND ($2::text IS NULL OR actor = $2) ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT 1`,
    [tenant, actor ?? null, depth],
  );
  return { at, kind: "transition", id };
}

function transitionScans(plan: PlanNode[]): PlanNode[] {
  return plan.filter((n) => n["Relation Name"] === "order_transitions");
}

beforeAll(async () => {
  const pool = getPool();
  for (const id of BULK) await ensureTenant(pool, tenantSpec(id));
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state)
     SELECT t, t || '-' || n, 'p-' || (n % 97), 600, 'CNY', 'delivered' FROM unnest($1::text[]) t, generate_series(1, $2::int) n`,
    [BULK, ORDERS_PER_TENANT],
  );
  await pool.query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
     SELECT o.tenant_id, o.id, 'pay', 'created', 'paid', 'k' || k,
            CASE WHEN (o.id + k) % 9 = 0 THEN 'staff:ops@example.com' ELSE 'channel:wechat' END,
            'callback', NULL, timestamptz '2026-11-01 00:00Z' - ((o.id * $2::int + k) * interval '1 minute')
     FROM orders o, generate_series(1, $2::int) k WHERE o.tenant_id = ANY($1)`,
    [BULK, TRANSITIONS_PER_ORDER],
  );
  await pool.query(`ANALYZE orders, order_transitions, audit_events`);
});

describe("audit explorer query plans (no sequential scan of order_transitions)", () => {
  const cases: { name: string; filters: AuditFilters; index: string; deep?: boolean }[] = [
    { name: "first page", filters: {}, index: "order_transitions_tenant_id_created_at_id_idx" },
    { name: "deep keyset page", filters: {}, index: "order_transitions_tenant_id_created_at_id_idx", deep: true },
    { name: "first page, actor filter", filters: { actor: "staff:ops@example.com" }, index: "order_transitions_tenant_id_actor_created_at_id_idx" },
    {
      name: "deep keyset page, actor filter",
      filters: { actor: "staff:ops@example.com" },
      index: "order_transitions_tenant_id_actor_created_at_id_idx",
      deep: true,
    },
  ];

  for (const scope of [["bulk-a"], BULK]) {
    for (const c of cases) {
      it(`${c.name}, ${scope.length} tenant(s) in scope: ${c.index}`, async () => {
        const position: AuditPosition = c.deep ? { after: await deepCursor("bulk-a", c.filters.actor ? 1_500 : 15_000, c.filters.actor) } : {};
        const plan = await planOf(scope, c.filters, position);
        const scans = transitionScans(plan);
        expect(scans.length).toBeGreaterThan(0);
        expect(scans.filter((n) => n["Node Type"] === "Seq Scan")).toEqual([]);
        expect(scans.map((n) => n["Index Name"])).toEqual(scans.map(() => c.index));
      });
    }
  }

  it("a time range and the other filters still read through an index", async () => {
    const plan = await planOf(BULK, {
      event: "pay",
      source: "callback",
      reason: "without",
      from: new Date("2026-10-01T00:00:00Z"),
      to: new Date("2026-10-15T00:00:00Z"),
    });
    expect(transitionScans(plan).filter((n) => n["Node Type"] === "Seq Scan")).toEqual([]);
  });

  it("the per-actor summary reads through an index", async () => {
    const summary = await actorSummary(["bulk-a"], { from: new Date("2026-10-25T00:00:00Z"), to: new Date("2026-11-01T00:00:00Z") }, new Date("2026-11-02T00:00:00Z"));
    expect(summary.status).toBe("ok");
    const { "QUERY PLAN": [{ Plan: plan }] } = await one(
      getPool(),
      explained,
      `EXPLAIN (FORMAT JSON) SELECT ot.actor FROM unnest($1::text[]) AS s(tenant_id)
       CROSS JOIN LATERAL (SELECT ot.actor FROM order_transitions ot WHERE ot.tenant_id = s.tenant_id AND ot.created_at >= $2 AND ot.created_at < $3) ot`,
      [["bulk-a"], new Date("2026-10-25T00:00:00Z"), new Date("2026-11-01T00:00:00Z")],
    );
    const scans = transitionScans(nodes(plan));
    expect(scans.filter((n) => n["Node Type"] === "Seq Scan")).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// What the explorer shows: small, exact fixtures.

const T0 = new Date("2026-11-20T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
let orderA1: { id: number; orderNo: string };
let orderA2: { id: number; orderNo: string };
let orderB1: { id: number; orderNo: string };
let orderOut: { id: number; orderNo: string };

async function transition(order: { id: number }, tenant: string, event: string, seconds: number, extra: { actor?: string; source?: string; reason?: string | null; bizKey?: string } = {}) {
  await getPool().query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
     VALUES ($1, $2, $3, 'paid', 'delivering', $4, $5, $6, $7, $8)`,
    [tenant, order.id, event, extra.bizKey ?? `${event}-${seconds}`, extra.actor ?? "game:server", extra.source ?? "api", extra.reason ?? null, at(seconds)],
  );
}

async function staffAction(tenant: string | null, action: string, seconds: number, detail: Record<string, unknown> = {}, actor = "staff:boss@example.com") {
  await getPool().query(`INSERT INTO audit_events (tenant_id, actor, action, target, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    tenant,
    actor,
    action,
    tenant ? `tenant:${tenant}` : "staff:someone@example.com",
    JSON.stringify(detail),
    at(seconds),
  ]);
}

const SCOPE = ["shop-a", "shop-b"];

async function everything(filters: AuditFilters, scope = SCOPE): Promise<readonly AuditRow[]> {
  return (await listAuditRows({ scope, filters, limit: 1_000 })).rows;
}

const label = (r: AuditRow) => (r.kind === "transition" ? `${r.tenantId}:${r.event}@${r.at.slice(11, 19)}` : `${r.tenantId}:${r.action}@${r.at.slice(11, 19)}`);

beforeAll(async () => {
  const pool = getPool();
  for (const id of [...SCOPE, "shop-out"]) await ensureTenant(pool, tenantSpec(id));
  orderA1 = await createOrder(pool, { tenantId: "shop-a", orderNo: "A-1" });
  orderA2 = await createOrder(pool, { tenantId: "shop-a", orderNo: "A-2" });
  orderB1 = await createOrder(pool, { tenantId: "shop-b", orderNo: "B-1" });
  orderOut = await createOrder(pool, { tenantId: "shop-out", orderNo: "OUT-1" });

  await transition(orderA1, "shop-a", "pay", 0, { actor: "channel:wechat", source: "callback" });
  await transition(orderA1, "shop-a", "begin-delivery", 10);
  await transition(orderB1, "shop-b", "pay", 10, { actor: "channel:alipay", source: "callback" });
  await transition(orderA2, "shop-a", "pay", 20, { actor: "staff:ops@example.com", source: "console", reason: "channel shows it paid, txn 42" });
  await transition(orderA1, "shop-a", "request-refund", 30, { actor: "staff:agent@example.com", source: "console", reason: "player asked" });
  await transition(orderA2, "shop-a", "close", 40, { actor: "system:timeout-close", source: "job", reason: "" });
  await transition(orderOut, "shop-out", "pay", 25, { actor: "channel:wechat", source: "callback" });
  // Same instant as A-1's begin-delivery and B-1's pay: the merge must still be a total order.
  await staffAction("shop-a", "settings.updated", 10, { field: "refund_approval_amount", before: 100, after: 200 });
  await staffAction("shop-b", "access.denied", 35, { reason: "tenant out of scope" });
  await staffAction(null, "sign-in.succeeded", 36);
  await staffAction("shop-out", "settings.updated", 37);
});

describe("listAuditRows", () => {
  it("merges transitions and staff actions in scope, newest first, with a total order at equal instants", async () => {
    const rows = await everything({});
    expect(rows.map(label)).toEqual([
      "shop-a:close@10:00:40",
      "shop-b:access.denied@10:00:35",
      "shop-a:request-refund@10:00:30",
      "shop-a:pay@10:00:20",
      // 10:00:10: transitions (by id, newest first) before staff actions.
      "shop-b:pay@10:00:10",
      "shop-a:begin-delivery@10:00:10",
      "shop-a:settings.updated@10:00:10",
      "shop-a:pay@10:00:00",
    ]);
  });

  it("never shows another tenant's rows, nor staff actions without a tenant", async () => {
    const rows = await everything({});
    expect(rows.some((r) => r.tenantId === "shop-out" || r.tenantId === null)).toBe(false);
    expect(await everything({ tenant: "shop-out" })).toEqual([]);
    expect(await everything({}, [])).toEqual([]);
  });

  it("links each transition to its order", async () => {
    const rows = await everything({ event: "request-refund" });
    expect(rows).toEqual([
      expect.objectContaining({ kind: "transition", tenantId: "shop-a", orderNo: "A-1", orderId: orderA1.id, actor: "staff:agent@example.com", reason: "player asked" }),
    ]);
  });

  it("filters by actor, event, source, tenant, time range, reason and kind", async () => {
    expect((await everything({ actor: "staff:ops@example.com" })).map(label)).toEqual(["shop-a:pay@10:00:20"]);
    expect((await everything({ actor: "staff:boss@example.com" })).map(label)).toEqual(["shop-b:access.denied@10:00:35", "shop-a:settings.updated@10:00:10"]);
    expect((await everything({ event: "pay" })).map(label)).toEqual(["shop-a:pay@10:00:20", "shop-b:pay@10:00:10", "shop-a:pay@10:00:00"]);
    expect((await everything({ event: "settings.updated" })).map(label)).toEqual(["shop-a:settings.updated@10:00:10"]);
    expect((await everything({ source: "console" })).map(label)).toEqual(["shop-a:request-refund@10:00:30", "shop-a:pay@10:00:20"]);
    expect((await everything({ tenant: "shop-b" })).map(label)).toEqual(["shop-b:access.denied@10:00:35", "shop-b:pay@10:00:10"]);
    expect((await everything({ from: at(10), to: at(30) })).map(label)).toEqual([
      "shop-a:pay@10:00:20",
      "shop-b:pay@10:00:10",
      "shop-a:begin-delivery@10:00:10",
      "shop-a:settings.updated@10:00:10",
    ]);
    // An empty reason is no reason.
    expect((await everything({ reason: "with" })).map(label)).toEqual([
      "shop-b:access.denied@10:00:35",
      "shop-a:request-refund@10:00:30",
      "shop-a:pay@10:00:20",
    ]);
    expect((await everything({ reason: "without", kind: "transition" })).map(label)).toEqual([
      "shop-a:close@10:00:40",
      "shop-b:pay@10:00:10",
      "shop-a:begin-delivery@10:00:10",
      "shop-a:pay@10:00:00",
    ]);
    expect((await everything({ kind: "staff" })).map(label)).toEqual(["shop-b:access.denied@10:00:35", "shop-a:settings.updated@10:00:10"]);
  });

  it("keyset pages visit every row exactly once, forwards and back, across equal instants", async () => {
    const all = (await everything({})).map(label);
    const seen: string[] = [];
    const pages: AuditRow[][] = [];
    let position: AuditPosition = {};
    for (;;) {
      const page = await listAuditRows({ scope: SCOPE, filters: {}, position, limit: 3 });
      pages.push([...page.rows]);
      seen.push(...page.rows.map(label));
      if (!page.older) break;
      position = { after: page.older };
    }
    expect(seen).toEqual(all);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);

    // Back from the last page: the newer pages are the same rows.
    let back = await listAuditRows({ scope: SCOPE, filters: {}, position: { before: { at: pages[2]![0]!.at, kind: pages[2]![0]!.kind, id: pages[2]![0]!.id } }, limit: 3 });
    expect(back.rows.map(label)).toEqual(pages[1]!.map(label));
    back = await listAuditRows({ scope: SCOPE, filters: {}, position: { before: back.newer! }, limit: 3 });
    expect(back.rows.map(label)).toEqual(pages[0]!.map(label));
    expect(back.newer).toBeNull();
  });

  it("reads its filters and position from the URL, dropping what it cannot read with a message", () => {
    const parsed = parseAuditSearch({
      actor: " staff:ops@example.com ",
      event: "pay",
      source: "fax",
      from: "2026-11-20T10:00",
      to: "2026-11-20",
      reason: "",
      after: "2026-11-20T10:00:10.000000Z_t12",
    });
    expect(parsed.filters).toEqual({ actor: "staff:ops@example.com", event: "pay", from: new Date("2026-11-20T10:00:00Z") });
    expect(parsed.position).toEqual({ after: { at: "2026-11-20T10:00:10.000000Z", kind: "transition", id: 12 } });
    expect(parsed.invalid.map((i) => i.field).sort()).toEqual(["source", "to"]);
  });

  it("says why a field was dropped as a problem for the page to put in its language, never as a sentence", () => {
    const parsed = parseAuditSearch({
      actor: "x".repeat(201),
      event: "Pay!",
      source: "fax",
      tenant: "Not A Tenant",
      from: "yesterday",
      to: "2026-02-32T10:00",
      reason: "maybe",
      kind: "both",
      after: "page-2",
    });
    expect(parsed.filters).toEqual({});
    expect(Object.fromEntries(parsed.invalid.map((i) => [i.field, i.problem]))).toEqual({
      actor: { kind: "too-long", max: 200 },
      event: { kind: "invalid-format" },
      source: { kind: "invalid-choice", options: [...SOURCES] },
      tenant: { kind: "invalid-format" },
      from: { kind: "invalid-date" },
      to: { kind: "invalid-date" },
      reason: { kind: "invalid-choice", options: ["with", "without"] },
      kind: { kind: "invalid-choice", options: ["transition", "staff"] },
      after: { kind: "page-position-unknown" },
    });
    const reversed = parseAuditSearch({ from: "2026-11-20T10:00", to: "2026-11-20T09:00" });
    expect(reversed.filters).toEqual({ from: new Date("2026-11-20T10:00:00Z") });
    expect(reversed.invalid).toEqual([{ field: "to", problem: { kind: "date-range-reversed" } }]);
  });

  it("keeps a range in order together with a page position (the range rule reads the parsed values, not the text again)", () => {
    const parsed = parseAuditSearch({ from: "2026-11-20T10:00", to: "2026-11-20T11:00", before: "2026-11-20T10:00:10.000000Z_s7" });
    expect(parsed.invalid).toEqual([]);
    expect(parsed.filters).toEqual({ from: new Date("2026-11-20T10:00:00Z"), to: new Date("2026-11-20T11:00:00Z") });
    expect(parsed.position).toEqual({ before: { at: "2026-11-20T10:00:10.000000Z", kind: "staff", id: 7 } });
    expect(parsed.raw).toEqual({ from: "2026-11-20T10:00", to: "2026-11-20T11:00", before: "2026-11-20T10:00:10.000000Z_s7" });
  });
});

describe("tenantChoices", () => {
  it("offers the products in scope, by id, and nothing else", async () => {
    expect(await tenantChoices(["shop-b", "shop-a", "no-such-shop"])).toEqual([
      { id: "shop-a", name: "shop-a" },
      { id: "shop-b", name: "shop-b" },
    ]);
    expect(await tenantChoices([])).toEqual([]);
  });
});

describe("actorSummary", () => {
  it("counts orders and transitions per actor and event over the range, in scope only", async () => {
    const summary = await actorSummary(SCOPE, { from: at(-60), to: at(60) }, at(3600));
    expect(summary).toMatchObject({
      status: "ok",
      clipped: false,
      truncated: false,
      rows: expect.arrayContaining([
        { actor: "game:server", orders: 1, transitions: 1, byEvent: [{ event: "begin-delivery", orders: 1, transitions: 1 }] },
        { actor: "channel:wechat", orders: 1, transitions: 1, byEvent: [{ event: "pay", orders: 1, transitions: 1 }] },
      ]),
    });
    if (summary.status !== "ok") throw new Error("unreachable");
    expect(summary.rows.map((r) => r.actor).sort()).toEqual(
      ["channel:alipay", "channel:wechat", "game:server", "staff:agent@example.com", "staff:ops@example.com", "system:timeout-close"].sort(),
    );
  });

  it("defaults to the last days of the range and caps a long one", async () => {
    const summary = await actorSummary(SCOPE, { from: new Date("2020-01-01T00:00:00Z") }, at(60));
    expect(summary).toMatchObject({ status: "ok", clipped: true });
    expect(await actorSummary(SCOPE, { kind: "staff" }, at(60))).toEqual({ status: "not-applicable" });
  });
});
