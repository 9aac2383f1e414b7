import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { one } from "@/lib/db/sql";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { actorSummary } from "./actor-summary";
import { auditPageQuery } from "./audit-rows";
import type { AuditCursor } from "./cursor";
import type { AuditFilters, AuditPosition } from "./filters";
import type { AuditLog } from "./kinds";
import type { PageQuery } from "./read-page";
import { securityPageQuery } from "./security-rows";

// The explorer's and the security log's plans: every log read through the index the page needs,
// never a sequential scan, first page and deep page alike. Enough rows (and fresh statistics) that
// the planner's choice is the one production gets.

useFreshDatabase();

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

async function explain(text: string, values: readonly unknown[]): Promise<PlanNode[]> {
  const { "QUERY PLAN": [{ Plan: plan }] } = await one(getPool(), explained, `EXPLAIN (FORMAT JSON) ${text}`, values);
  return nodes(plan);
}

async function planOf(scope: readonly string[], filters: AuditFilters, position: AuditPosition = {}): Promise<PlanNode[]> {
  const query: PageQuery | null = auditPageQuery({ scope, filters, position, limit: 50 });
  if (!query) throw new Error("no query");
  return explain(query.text, query.values);
}

const TABLE: Readonly<Record<AuditLog, string>> = { transition: "order_transitions", grant: "grants", note: "order_notes", action: "audit_events" };

/** Per log: the indexes its scans used (no sequential scan allowed). */
function indexesByLog(plan: PlanNode[]): Partial<Record<AuditLog, string[]>> {
  const out: Partial<Record<AuditLog, string[]>> = {};
  for (const [log, table] of Object.entries(TABLE) as [AuditLog, string][]) {
    const scans = plan.filter((n) => n["Relation Name"] === table || n["Index Name"]?.startsWith(`${table}_`));
    expect(scans.filter((n) => n["Node Type"] === "Seq Scan"), `${table} is read whole`).toEqual([]);
    const indexes = [...new Set(scans.flatMap((n) => (n["Index Name"] ? [n["Index Name"]] : [])))];
    if (indexes.length > 0) out[log] = indexes;
  }
  return out;
}

/** A position deep in the tenant's history: the transition `depth` rows from the newest. */
async function deepCursor(tenant: string, depth: number, actor?: string): Promise<AuditCursor> {
  const { at, id } = await one(
    getPool(),
    z.object({ at: z.string(), id: z.number() }),
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id FROM order_transitions
     WHERE tenant_id = $1 AND ($2::text IS NULL OR actor = $2) ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT 1`,
    [tenant, actor ?? null, depth],
  );
  return { at, log: "transition", id };
}

beforeAll(async () => {
  const pool = getPool();
  for (const id of BULK) await ensureTenant(pool, tenantSpec(id));
  await pool.query(
    `INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state)
     SELECT t, t || '-' || n, 'p-' || (n % 97), 600, 'CNY', 'delivered' FROM unnest($1::text[]) t, generate_series(1, $2::int) n`,
    [BULK, ORDERS_PER_TENANT],
  );
  const minute = `timestamptz '2026-11-01 00:00Z' - ((o.id * $2::int + k) * interval '1 minute')`;
  await pool.query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
     SELECT o.tenant_id, o.id, 'pay', 'created', 'paid', 'k' || k,
            CASE WHEN (o.id + k) % 9 = 0 THEN 'staff:ops@example.com' ELSE 'channel:wechat' END, 'callback', NULL, ${minute}
     FROM orders o, generate_series(1, $2::int) k WHERE o.tenant_id = ANY($1)`,
    [BULK, TRANSITIONS_PER_ORDER],
  );
  await pool.query(
    `INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason, created_at)
     SELECT o.tenant_id, o.id, 'gems-60', 'g' || k, 1, 'api', CASE WHEN k = 1 AND o.id % 7 = 0 THEN 'staff:ops@example.com' ELSE 'game:server' END,
            'delivered', ${minute}
     FROM orders o, generate_series(1, 2) k WHERE o.tenant_id = ANY($1)`,
    [BULK, TRANSITIONS_PER_ORDER],
  );
  await pool.query(
    `INSERT INTO order_notes (tenant_id, order_id, author, body, created_at)
     SELECT o.tenant_id, o.id, CASE WHEN o.id % 5 = 0 THEN 'staff:ops@example.com' ELSE 'staff:agent@example.com' END,
            'player ' || o.player_id || ' called about order ' || o.order_no, ${minute.replace("+ k", "+ 3")}
     FROM orders o WHERE o.tenant_id = ANY($1)`,
    [BULK, TRANSITIONS_PER_ORDER],
  );
  await pool.query(
    `INSERT INTO audit_events (tenant_id, order_id, actor, action, target, detail, created_at)
     SELECT o.tenant_id, o.id, 'staff:manager@example.com', 'approval.approved', 'approval:' || o.id, '{"reason":"ok"}', ${minute.replace("+ k", "+ 4")}
     FROM orders o WHERE o.tenant_id = ANY($1) AND o.id % 2 = 0`,
    [BULK, TRANSITIONS_PER_ORDER],
  );
  // Sign-ins belong to no tenant: many of them, newer than everything else.
  await pool.query(
    `INSERT INTO audit_events (tenant_id, actor, action, target, ip, detail, created_at)
     SELECT NULL, 'anonymous', 'sign-in.failed', 'user' || (n % 50) || '@example.com', '10.0.' || (n % 200) || '.1', '{"why":"wrong-password"}',
            timestamptz '2026-11-02 00:00Z' - n * interval '1 second'
     FROM generate_series(1, 20000) n`,
  );
  await pool.query(`VACUUM ANALYZE orders, order_transitions, grants, order_notes, audit_events`);
}, 120_000);

const BY_TIME = {
  transition: ["order_transitions_tenant_id_created_at_id_idx"],
  grant: ["grants_tenant_id_created_at_id_idx"],
  note: ["order_notes_tenant_id_created_at_id_idx"],
  action: ["audit_events_tenant_id_created_at_id_idx"],
};
const BY_ACTOR = {
  transition: ["order_transitions_tenant_id_actor_created_at_id_idx"],
  grant: ["grants_tenant_id_actor_created_at_id_idx"],
  note: ["order_notes_tenant_id_author_created_at_id_idx"],
  action: ["audit_events_tenant_id_actor_created_at_id_idx"],
};

describe("audit explorer query plans: each log in index order, no sequential scan", () => {
  for (const scope of [["bulk-a"], BULK]) {
    it(`first and deep pages, ${scope.length} tenant(s) in scope`, async () => {
      expect(indexesByLog(await planOf(scope, {}))).toEqual(BY_TIME);
      expect(indexesByLog(await planOf(scope, {}, { after: await deepCursor("bulk-a", 15_000) }))).toEqual(BY_TIME);
    });

    it(`first and deep pages with an actor filter, ${scope.length} tenant(s) in scope`, async () => {
      const filters = { actor: "staff:ops@example.com" };
      expect(indexesByLog(await planOf(scope, filters))).toEqual(BY_ACTOR);
      expect(indexesByLog(await planOf(scope, filters, { after: await deepCursor("bulk-a", 1_500, filters.actor) }))).toEqual(BY_ACTOR);
    });
  }

  it("an order filter reads the order by its number, then each log through its (tenant, order) index", async () => {
    const plan = await planOf(BULK, { order: "bulk-b-1234" });
    expect(plan.some((n) => n["Index Name"] === "orders_tenant_id_order_no_key")).toBe(true);
    const byLog = indexesByLog(plan);
    expect(byLog.transition).toEqual(["order_transitions_tenant_id_order_id_event_biz_key_key"]);
    expect(byLog.grant).toEqual(["grants_tenant_id_order_id_sku_grant_id_key"]);
    expect(byLog.note!.every((i) => i.startsWith("order_notes_tenant_id_order_id_"))).toBe(true);
    expect(byLog.action).toEqual(["audit_events_tenant_id_order_id_id_idx"]);
  });

  it("a kind, a time range, note text and the other filters still read through an index", async () => {
    expect(indexesByLog(await planOf(BULK, { kind: "approval" }))).toEqual({ action: BY_TIME.action });
    expect(indexesByLog(await planOf(BULK, { text: "called about" }))).toEqual({ note: BY_TIME.note });
    expect(indexesByLog(await planOf(BULK, { kind: "grant", source: "api", reason: "with", from: new Date("2026-10-01T00:00:00Z"), to: new Date("2026-10-15T00:00:00Z") }))).toEqual({
      grant: BY_TIME.grant,
    });
    indexesByLog(await planOf(BULK, { event: "pay", source: "callback", reason: "without", from: new Date("2026-10-01T00:00:00Z") }));
  });

  it("the per-actor summary reads every log through an index", async () => {
    const summary = await actorSummary(["bulk-a"], { from: new Date("2026-10-25T00:00:00Z"), to: new Date("2026-11-01T00:00:00Z") }, new Date("2026-11-02T00:00:00Z"));
    expect(summary.status).toBe("ok");
    for (const [log, table] of Object.entries(TABLE)) {
      const plan = await explain(
        `SELECT x.actor FROM unnest($1::text[]) AS s(tenant_id)
         CROSS JOIN LATERAL (SELECT t.${log === "note" ? "author" : "actor"} AS actor FROM ${table} t WHERE t.tenant_id = s.tenant_id AND t.created_at >= $2 AND t.created_at < $3) x`,
        [["bulk-a"], new Date("2026-10-25T00:00:00Z"), new Date("2026-11-01T00:00:00Z")],
      );
      expect(plan.filter((n) => n["Node Type"] === "Seq Scan"), table).toEqual([]);
    }
  });
});

describe("security log query plans", () => {
  // Facts without a tenant are most of audit_events (every sign-in): walking (created_at, id) and
  // skipping the few with a tenant is as good an index-order read as the tenant index's NULL range.
  const NEWEST_FIRST = ["audit_events_tenant_id_created_at_id_idx", "audit_events_created_at_id_idx"];

  it("reads the facts without a tenant and the admin's tenants' newest first through an index, first page and deep", async () => {
    for (const scope of [[], BULK]) {
      const first = securityPageQuery({ scope, filters: {}, limit: 50 });
      const deep = securityPageQuery({ scope, filters: { action: "sign-in" }, position: { after: { at: "2026-11-01T20:00:00.000000Z", log: "action", id: 999_999 } }, limit: 50 });
      for (const query of [first, deep]) {
        const plan = await explain(query.text, query.values);
        const used = indexesByLog(plan).action ?? [];
        expect(used.length).toBeGreaterThan(0);
        expect(used.filter((i) => !NEWEST_FIRST.includes(i))).toEqual([]);
      }
    }
  });
});
