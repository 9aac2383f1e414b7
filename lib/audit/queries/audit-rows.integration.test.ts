import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { SOURCES } from "@/lib/orders/machine";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { actorSummary } from "./actor-summary";
import type { AuditRow } from "./audit-row";
import { listAuditRows } from "./audit-rows";
import { auditCsvCells, AUDIT_CSV_HEADER } from "./audit-csv";
import { parseAuditSearch, type AuditFilters, type AuditPosition } from "./filters";
import { AUDIT_KINDS } from "./kinds";
import { tenantChoices } from "./tenant-choices";

// What the explorer shows, on small exact fixtures: the four logs merged, each filter, the scope,
// keyset pages. Query plans on large data: audit-plans.integration.test.ts.

useFreshDatabase();

const T0 = new Date("2026-11-20T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
type Order = { id: number; orderNo: string };
let orderA1: Order;
let orderA2: Order;
let orderB1: Order;
let orderOut: Order;

async function transition(order: Order, tenant: string, event: string, seconds: number, extra: { actor?: string; source?: string; reason?: string | null } = {}) {
  await getPool().query(
    `INSERT INTO order_transitions (tenant_id, order_id, event, from_state, to_state, biz_key, actor, source, reason, created_at)
     VALUES ($1, $2, $3, 'paid', 'delivering', $4, $5, $6, $7, $8)`,
    [tenant, order.id, event, `${event}-${seconds}`, extra.actor ?? "game:server", extra.source ?? "api", extra.reason ?? null, at(seconds)],
  );
}

async function grantRow(order: Order, tenant: string, seconds: number, g: { grantId: string; quantity: number; source: string; actor: string; reason: string }) {
  await getPool().query(
    `INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason, created_at) VALUES ($1, $2, 'gems-60', $3, $4, $5, $6, $7, $8)`,
    [tenant, order.id, g.grantId, g.quantity, g.source, g.actor, g.reason, at(seconds)],
  );
}

async function note(order: Order, tenant: string, seconds: number, body: string, correctsId: number | null = null): Promise<number> {
  const { rows } = await getPool().query<{ id: number }>(
    `INSERT INTO order_notes (tenant_id, order_id, author, body, corrects_id, created_at) VALUES ($1, $2, 'staff:agent@example.com', $3, $4, $5) RETURNING id`,
    [tenant, order.id, body, correctsId, at(seconds)],
  );
  return rows[0]!.id;
}

async function action(tenant: string | null, name: string, seconds: number, detail: Record<string, unknown> = {}, extra: { actor?: string; order?: Order } = {}) {
  await getPool().query(`INSERT INTO audit_events (tenant_id, order_id, actor, action, target, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    tenant,
    extra.order?.id ?? null,
    extra.actor ?? "staff:boss@example.com",
    name,
    tenant ? `tenant:${tenant}` : "staff:someone@example.com",
    JSON.stringify(detail),
    at(seconds),
  ]);
}

const SCOPE = ["shop-a", "shop-b"];

async function everything(filters: AuditFilters, scope = SCOPE): Promise<readonly AuditRow[]> {
  const page = await listAuditRows({ scope, filters, limit: 1_000 });
  expect(page.timedOut).toBe(false);
  return page.rows;
}

function what(r: AuditRow): string {
  switch (r.log) {
    case "transition":
      return r.event;
    case "grant":
      return `${r.quantity < 0 ? "reversal" : "grant"}:${r.sku}`;
    case "note":
      return r.correctsId === null ? "note" : "note-correction";
    case "action":
      return r.action;
  }
}
const label = (r: AuditRow) => `${r.tenantId}:${what(r)}@${r.at.slice(14, 19)}`;
const labels = async (filters: AuditFilters, scope = SCOPE) => (await everything(filters, scope)).map(label);

beforeAll(async () => {
  const pool = getPool();
  for (const id of [...SCOPE, "shop-out"]) await ensureTenant(pool, tenantSpec(id));
  orderA1 = await createOrder(pool, { tenantId: "shop-a", orderNo: "A-1" });
  orderA2 = await createOrder(pool, { tenantId: "shop-a", orderNo: "A-2" });
  orderB1 = await createOrder(pool, { tenantId: "shop-b", orderNo: "B-1" });
  orderOut = await createOrder(pool, { tenantId: "shop-out", orderNo: "OUT-1" });
  const sameA = await createOrder(pool, { tenantId: "shop-a", orderNo: "SAME-1" });
  const sameB = await createOrder(pool, { tenantId: "shop-b", orderNo: "SAME-1" });

  await transition(orderA1, "shop-a", "pay", 0, { actor: "channel:wechat", source: "callback" });
  await transition(orderA1, "shop-a", "begin-delivery", 10);
  await transition(orderB1, "shop-b", "pay", 10, { actor: "channel:alipay", source: "callback" });
  await transition(orderA2, "shop-a", "pay", 20, { actor: "staff:ops@example.com", source: "console", reason: "channel shows it paid, txn 42" });
  await transition(orderA1, "shop-a", "request-refund", 30, { actor: "staff:agent@example.com", source: "console", reason: "player asked" });
  await transition(orderA2, "shop-a", "close", 40, { actor: "system:timeout-close", source: "job", reason: "" });
  await transition(orderOut, "shop-out", "pay", 25, { actor: "channel:wechat", source: "callback" });
  await transition(sameA, "shop-a", "pay", 50, { actor: "channel:wechat", source: "callback" });
  await transition(sameB, "shop-b", "pay", 51, { actor: "channel:wechat", source: "callback" });

  await grantRow(orderA1, "shop-a", 12, { grantId: "console:k1", quantity: 10, source: "console", actor: "staff:ops@example.com", reason: "lost in the 14:00 outage" });
  await grantRow(orderA1, "shop-a", 45, { grantId: "refund:rf-1", quantity: -10, source: "callback", actor: "channel:wechat", reason: "revoke: refund confirmed" });
  await grantRow(orderOut, "shop-out", 13, { grantId: "console:k2", quantity: 5, source: "console", actor: "staff:ops@example.com", reason: "out of scope" });

  const first = await note(orderA2, "shop-a", 15, "Player called: says the gems never arrived");
  await note(orderA2, "shop-a", 16, "Correction: it was the skin, not the GEMS", first);
  await note(orderB1, "shop-b", 17, "Gems arrived late, 100% sure");
  await note(orderOut, "shop-out", 18, "gems in another product");

  // Same instant as A-1's begin-delivery and B-1's pay: the merge must still be a total order.
  await action("shop-a", "settings.updated", 10, { field: "refund_approval_amount", before: 100, after: 200 });
  await action("shop-a", "approval.requested", 31, { approvalId: 1, amount: 600, reason: "big refund" }, { actor: "staff:agent@example.com", order: orderA1 });
  await action("shop-b", "access.denied", 35, { reason: "tenant out of scope" });
  await action(null, "sign-in.succeeded", 36);
  await action("shop-out", "settings.updated", 37);
  await action("shop-b", "bulk.started", 38, { batchId: "b-1", orders: 3, reason: "outage" });

  // Cases, channel refunds, take-backs, refund reviews and store notifications, in a product of their own.
  await ensureTenant(pool, tenantSpec("shop-c"));
  const orderC1 = await createOrder(pool, { tenantId: "shop-c", orderNo: "C-1" });
  const onC1 = { actor: "staff:ops@example.com", order: orderC1 };
  await action("shop-c", "case.taken", 60, { caseId: 9, kind: "second-payment", previousOwner: null }, onC1);
  await action("shop-c", "case.resolving", 61, { caseId: 9, kind: "second-payment", resolution: "refund", reason: "paid twice" }, onC1);
  await action("shop-c", "refund.requested", 62, { refundId: "rf-9", amount: 600 }, onC1);
  await action("shop-c", "case.dismissed", 63, { caseId: 10, kind: "delivery-failed", resolution: null, reason: "fixed by hand" }, onC1);
  await action("shop-c", "take-back.failed", 64, { takeBackId: 3 }, { actor: "system:take-backs", order: orderC1 });
  await action("shop-c", "refund-review.answered", 65, { reviewId: 4 }, onC1);
  await action("shop-c", "store.notification", 66, { type: "REFUND" }, { actor: "store:appstore", order: orderC1 });
});

const ALL = [
  "shop-b:pay@00:51",
  "shop-a:pay@00:50",
  "shop-a:reversal:gems-60@00:45",
  "shop-a:close@00:40",
  "shop-b:bulk.started@00:38",
  "shop-b:access.denied@00:35",
  "shop-a:approval.requested@00:31",
  "shop-a:request-refund@00:30",
  "shop-a:pay@00:20",
  "shop-b:note@00:17",
  "shop-a:note-correction@00:16",
  "shop-a:note@00:15",
  "shop-a:grant:gems-60@00:12",
  // 10:00:10: transitions (by id, newest first), then audit_events.
  "shop-b:pay@00:10",
  "shop-a:begin-delivery@00:10",
  "shop-a:settings.updated@00:10",
  "shop-a:pay@00:00",
];

describe("listAuditRows", () => {
  it("merges transitions, grants, notes and audit events in scope, newest first, with a total order at equal instants", async () => {
    expect(await labels({})).toEqual(ALL);
  });

  it("never shows another tenant's facts, nor facts without a tenant", async () => {
    const rows = await everything({});
    expect(rows.some((r) => r.tenantId === "shop-out" || r.tenantId === null)).toBe(false);
    expect(await everything({ tenant: "shop-out" })).toEqual([]);
    expect(await everything({ order: "OUT-1" })).toEqual([]);
    expect(await everything({ text: "another product" })).toEqual([]);
    expect(await everything({}, [])).toEqual([]);
  });

  it("links each fact to its order, with the fact's own columns", async () => {
    const rows = await everything({ order: "A-1" });
    expect(rows.map(label)).toEqual([
      "shop-a:reversal:gems-60@00:45",
      "shop-a:approval.requested@00:31",
      "shop-a:request-refund@00:30",
      "shop-a:grant:gems-60@00:12",
      "shop-a:begin-delivery@00:10",
      "shop-a:pay@00:00",
    ]);
    expect(rows.every((r) => r.orderNo === "A-1" && r.orderId === orderA1.id)).toBe(true);
    expect(rows[3]).toMatchObject({ log: "grant", kind: "grant", sku: "gems-60", quantity: 10, grantId: "console:k1", source: "console", actor: "staff:ops@example.com", reason: "lost in the 14:00 outage" });
    expect(rows[1]).toMatchObject({ log: "action", kind: "approval", detail: { approvalId: 1, amount: 600 }, reason: "big refund", currency: "CNY" });
    const notes = await everything({ kind: "note", tenant: "shop-a" });
    expect(notes[0]).toMatchObject({ log: "note", orderNo: "A-2", body: "Correction: it was the skin, not the GEMS", correctsId: notes[1]!.id });
  });

  it("filters by kind: each log, and audit events by what their action is", async () => {
    const byKind = Object.fromEntries(await Promise.all(AUDIT_KINDS.map(async (kind) => [kind, (await everything({ kind })).length] as const)));
    expect(byKind).toEqual({
      transition: 8,
      grant: 2,
      note: 3,
      approval: 1,
      case: 0,
      refund: 0,
      "take-back": 0,
      "refund-review": 0,
      store: 0,
      webhook: 0,
      bulk: 1,
      settings: 1,
      staff: 0,
      apikey: 0,
      "sign-in": 0,
      access: 1,
      audit: 0,
    });
    expect(await labels({ kind: "grant" })).toEqual(["shop-a:reversal:gems-60@00:45", "shop-a:grant:gems-60@00:12"]);
  });

  it("has a kind for the facts of cases, channel refunds, take-backs, refund reviews and stores, and finds each by its name", async () => {
    const shopC = ["shop-c"];
    expect(await labels({ kind: "case" }, shopC)).toEqual(["shop-c:case.dismissed@01:03", "shop-c:case.resolving@01:01", "shop-c:case.taken@01:00"]);
    for (const [kind, name] of [["refund", "refund.requested"], ["take-back", "take-back.failed"], ["refund-review", "refund-review.answered"], ["store", "store.notification"]] as const) {
      expect((await everything({ kind }, shopC)).map(what)).toEqual([name]);
    }
    expect(await labels({ event: "case.dismissed" }, shopC)).toEqual(["shop-c:case.dismissed@01:03"]);
    expect((await everything({}, shopC)).map((r) => r.kind)).toEqual(["store", "refund-review", "take-back", "case", "refund", "case", "case"]);
  });

  it("filters by actor, event, source, tenant, time range and reason across the logs", async () => {
    expect(await labels({ actor: "staff:ops@example.com" })).toEqual(["shop-a:pay@00:20", "shop-a:grant:gems-60@00:12"]);
    expect(await labels({ actor: "staff:agent@example.com" })).toEqual([
      "shop-a:approval.requested@00:31",
      "shop-a:request-refund@00:30",
      "shop-b:note@00:17",
      "shop-a:note-correction@00:16",
      "shop-a:note@00:15",
    ]);
    expect(await labels({ event: "pay", tenant: "shop-a" })).toEqual(["shop-a:pay@00:50", "shop-a:pay@00:20", "shop-a:pay@00:00"]);
    expect(await labels({ event: "settings.updated" })).toEqual(["shop-a:settings.updated@00:10"]);
    // A source is a transition's or a grant's.
    expect(await labels({ source: "console" })).toEqual(["shop-a:request-refund@00:30", "shop-a:pay@00:20", "shop-a:grant:gems-60@00:12"]);
    expect(await labels({ tenant: "shop-b", from: at(11) })).toEqual(["shop-b:pay@00:51", "shop-b:bulk.started@00:38", "shop-b:access.denied@00:35", "shop-b:note@00:17"]);
    expect(await labels({ from: at(10), to: at(13) })).toEqual(["shop-a:grant:gems-60@00:12", "shop-b:pay@00:10", "shop-a:begin-delivery@00:10", "shop-a:settings.updated@00:10"]);
    // An empty reason is no reason; notes are not changes and take no reason filter.
    expect(await labels({ reason: "with", to: at(40) })).toEqual([
      "shop-b:bulk.started@00:38",
      "shop-b:access.denied@00:35",
      "shop-a:approval.requested@00:31",
      "shop-a:request-refund@00:30",
      "shop-a:pay@00:20",
      "shop-a:grant:gems-60@00:12",
    ]);
    expect(await labels({ reason: "without", kind: "transition", to: at(50) })).toEqual(["shop-a:close@00:40", "shop-b:pay@00:10", "shop-a:begin-delivery@00:10", "shop-a:pay@00:00"]);
  });

  it("finds an order by its number in each product of the scope, and nothing for an unknown number", async () => {
    expect(await labels({ order: "SAME-1" })).toEqual(["shop-b:pay@00:51", "shop-a:pay@00:50"]);
    expect(await labels({ order: "SAME-1", tenant: "shop-a" })).toEqual(["shop-a:pay@00:50"]);
    expect(await labels({ order: "NO-SUCH" })).toEqual([]);
  });

  it("searches notes by text, case-insensitively, as plain text (no pattern characters)", async () => {
    expect(await labels({ text: "gems" })).toEqual(["shop-b:note@00:17", "shop-a:note-correction@00:16", "shop-a:note@00:15"]);
    expect(await labels({ text: "GEMS NEVER" })).toEqual(["shop-a:note@00:15"]);
    expect(await labels({ text: "100%" })).toEqual(["shop-b:note@00:17"]);
    expect(await labels({ text: "%" , tenant: "shop-a" })).toEqual([]);
    expect(await labels({ text: "g_ms" })).toEqual([]);
    expect(await labels({ text: "gems", kind: "transition" })).toEqual([]);
    expect(await labels({ text: "gems", actor: "staff:agent@example.com", order: "A-2" })).toEqual(["shop-a:note-correction@00:16", "shop-a:note@00:15"]);
  });

  it("keyset pages visit every row exactly once, forwards and back, across logs and equal instants", async () => {
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
    expect(seen).toEqual(ALL);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 3, 3, 3, 2]);

    // Back from the last page: the newer pages are the same rows.
    for (let i = pages.length - 1; i > 0; i--) {
      const first = pages[i]![0]!;
      const back = await listAuditRows({ scope: SCOPE, filters: {}, position: { before: { at: first.at, log: first.log, id: first.id } }, limit: 3 });
      expect(back.rows.map(label)).toEqual(pages[i - 1]!.map(label));
      expect(back.newer === null).toBe(i === 1);
    }
  });

  it("writes every kind to the CSV, each in the columns it has", async () => {
    const rows = await everything({ order: "A-1" });
    const cells = rows.map((r) => Object.fromEntries(AUDIT_CSV_HEADER.map((h, i) => [h, auditCsvCells(r)[i]])));
    expect(cells[0]).toMatchObject({ kind: "grant", event_or_action: "reversal", sku: "gems-60", quantity: -10, grant_id: "refund:rf-1", order_no: "A-1" });
    expect(cells[1]).toMatchObject({ kind: "approval", event_or_action: "approval.requested", reason: "big refund", detail: JSON.stringify({ amount: 600, reason: "big refund", approvalId: 1 }) });
    const notes = (await everything({ kind: "note", tenant: "shop-a" })).map(auditCsvCells);
    expect(notes[0]!.slice(-2)).toEqual(["Correction: it was the skin, not the GEMS", `note:${(notes[1]![11] as string).slice(5)}`]);
  });

  it("reads its filters and position from the URL, dropping what it cannot read with a message", () => {
    const parsed = parseAuditSearch({
      actor: " staff:ops@example.com ",
      event: "pay",
      source: "fax",
      from: "2026-11-20T10:00",
      to: "2026-11-20",
      reason: "",
      order: " A-1 ",
      text: " gems ",
      after: "2026-11-20T10:00:10.000000Z_g12",
    });
    expect(parsed.filters).toEqual({ actor: "staff:ops@example.com", event: "pay", from: new Date("2026-11-20T10:00:00Z"), order: "A-1", text: "gems" });
    expect(parsed.position).toEqual({ after: { at: "2026-11-20T10:00:10.000000Z", log: "grant", id: 12 } });
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
      kind: "staff-actions",
      order: "x".repeat(65),
      text: "x".repeat(201),
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
      kind: { kind: "invalid-choice", options: [...AUDIT_KINDS] },
      order: { kind: "too-long", max: 64 },
      text: { kind: "too-long", max: 200 },
      after: { kind: "page-position-unknown" },
    });
    const reversed = parseAuditSearch({ from: "2026-11-20T10:00", to: "2026-11-20T09:00" });
    expect(reversed.filters).toEqual({ from: new Date("2026-11-20T10:00:00Z") });
    expect(reversed.invalid).toEqual([{ field: "to", problem: { kind: "date-range-reversed" } }]);
  });

  it("keeps a range in order together with a page position (the range rule reads the parsed values, not the text again)", () => {
    const parsed = parseAuditSearch({ from: "2026-11-20T10:00", to: "2026-11-20T11:00", before: "2026-11-20T10:00:10.000000Z_a7" });
    expect(parsed.invalid).toEqual([]);
    expect(parsed.filters).toEqual({ from: new Date("2026-11-20T10:00:00Z"), to: new Date("2026-11-20T11:00:00Z") });
    expect(parsed.position).toEqual({ before: { at: "2026-11-20T10:00:10.000000Z", log: "action", id: 7 } });
    expect(parsed.raw).toEqual({ from: "2026-11-20T10:00", to: "2026-11-20T11:00", before: "2026-11-20T10:00:10.000000Z_a7" });
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
  it("counts every kind of fact per actor, with the orders they touched, in scope only", async () => {
    const summary = await actorSummary(SCOPE, { from: at(-60), to: at(60) }, at(3600));
    if (summary.status !== "ok") throw new Error(`summary: ${summary.status}`);
    expect(summary).toMatchObject({ clipped: false, truncated: false });
    const byActor = Object.fromEntries(summary.rows.map((r) => [r.actor, r]));
    expect(byActor["staff:agent@example.com"]).toEqual({
      actor: "staff:agent@example.com",
      orders: 3,
      facts: 5,
      parts: [
        { log: "note", kind: "note", what: "note", orders: 2, facts: 3 },
        { log: "action", kind: "approval", what: "approval.requested", orders: 1, facts: 1 },
        { log: "transition", kind: "transition", what: "request-refund", orders: 1, facts: 1 },
      ],
    });
    expect(byActor["staff:ops@example.com"]).toMatchObject({ orders: 2, facts: 2 });
    expect(byActor["staff:boss@example.com"]).toEqual({
      actor: "staff:boss@example.com",
      orders: 0,
      facts: 3,
      parts: [
        { log: "action", kind: "access", what: "access.denied", orders: 0, facts: 1 },
        { log: "action", kind: "bulk", what: "bulk.started", orders: 0, facts: 1 },
        { log: "action", kind: "settings", what: "settings.updated", orders: 0, facts: 1 },
      ],
    });
    expect(byActor["channel:wechat"]!.parts).toContainEqual({ log: "grant", kind: "grant", what: "reversal", orders: 1, facts: 1 });
    expect(Object.keys(byActor).sort()).toEqual(
      ["channel:alipay", "channel:wechat", "game:server", "staff:agent@example.com", "staff:boss@example.com", "staff:ops@example.com", "system:timeout-close"].sort(),
    );
  });

  it("follows the explorer's filters, defaults to the last days of the range and caps a long one", async () => {
    const grants = await actorSummary(SCOPE, { kind: "grant", from: at(-60), to: at(60) }, at(3600));
    expect(grants).toMatchObject({ status: "ok", rows: [{ actor: "channel:wechat", facts: 1 }, { actor: "staff:ops@example.com", facts: 1 }] });
    const summary = await actorSummary(SCOPE, { from: new Date("2020-01-01T00:00:00Z") }, at(60));
    expect(summary).toMatchObject({ status: "ok", clipped: true });
    expect(await actorSummary(SCOPE, { kind: "note", event: "pay" }, at(60))).toEqual({ status: "not-applicable" });
  });
});
