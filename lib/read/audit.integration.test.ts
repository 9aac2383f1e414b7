import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/audit/route";
import { GET as SUMMARY } from "@/app/api/console/audit/summary/route";
import type { ActorSummary } from "@/lib/audit/queries/actor-summary";
import { encodeCursor } from "@/lib/audit/queries/cursor";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { AuditModel } from "./audit";

// The audit explorer's read model through its route: the facts of the caller's products only, the
// filters read one by one (a bad one is dropped and named, never a failed read), keyset pages, and
// what the page offers by role.

useFreshDatabase();

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("au-home"));
  await ensureTenant(pool, tenantSpec("au-other"));
  for (const [tenantId, orderNo] of [
    ["au-home", "AU-1"],
    ["au-home", "AU-2"],
    ["au-other", "AU-ELSEWHERE"],
  ] as const) {
    const order = await createOrder(pool, { tenantId, orderNo, amount: 6_00 });
    await transit({ orderId: order.id, event: "pay", bizKey: `txn-${orderNo}`, amount: 6_00, actor: `channel:${tenantId}`, source: "callback" });
  }
});

/** The route as the page calls it: its own query string handed over whole. */
async function explorer(pageQuery = ""): Promise<{ status: number; model: AuditModel | null; body: string }> {
  const url = `http://localhost/api/console/audit?${new URLSearchParams({ query: pageQuery })}`;
  const response = await GET(new NextRequest(url), { params: Promise.resolve({}) });
  const body = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<AuditModel>(body) : null, body };
}

/** The summary's route, for the same page query. */
async function summary(pageQuery = ""): Promise<ActorSummary> {
  const url = `http://localhost/api/console/audit/summary?${new URLSearchParams({ query: pageQuery })}`;
  const response = await SUMMARY(new NextRequest(url), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  return superjson.parse<ActorSummary>(await response.text());
}

describe("GET /api/console/audit", () => {
  it("shows the facts of the caller's products only, with the export for a manager", async () => {
    signInAs("manager", ["au-home"]);
    const { status, model } = await explorer();
    expect(status).toBe(200);
    const m = model!;
    expect(m.tenants.map((t) => t.id)).toEqual(["au-home"]);
    expect(m.page.rows.map((r) => [r.tenantId, r.orderNo, r.kind]).sort()).toEqual([
      ["au-home", "AU-1", "transition"],
      ["au-home", "AU-2", "transition"],
    ]);
    expect(m.firstPage).toBe(true);
    expect(m.invalid).toEqual([]);
    expect(m.exportHref).toBe("/api/console/audit/export");
    expect(await summary()).toMatchObject({ status: "ok", rows: [{ actor: "channel:au-home", orders: 2, facts: 2 }] });
    expect(m.chain).toHaveProperty("checkpoint");
  });

  it("reads nothing of a product outside the scope, even when the filter names it", async () => {
    signInAs("manager", ["au-home"]);
    const { status, model, body } = await explorer("tenant=au-other");
    expect(status).toBe(200);
    expect(model!.page.rows).toEqual([]);
    expect(await summary("tenant=au-other")).toEqual({ status: "not-applicable" });
    expect(body).not.toContain("AU-ELSEWHERE");
    expect(body).not.toContain("channel:au-other");
  });

  it("applies the filters and carries them on to the links and the export", async () => {
    signInAs("manager", ["au-home", "au-other"]);
    const { model } = await explorer("actor=channel%3Aau-other&kind=transition");
    expect(model!.page.rows.map((r) => r.orderNo)).toEqual(["AU-ELSEWHERE"]);
    expect(model!.linkParams).toEqual({ actor: "channel:au-other", kind: "transition" });
    expect(model!.raw).toMatchObject({ actor: "channel:au-other", kind: "transition" });
    expect(model!.exportHref).toBe("/api/console/audit/export?actor=channel%3Aau-other&kind=transition");
  });

  it("drops a filter it cannot read and names it with its problem, still reading the rest (a NUL, a date that is none)", async () => {
    signInAs("manager", ["au-home"]);
    const { status, model } = await explorer("actor=staff%3Aa%00&from=yesterday&kind=transition");
    expect(status).toBe(200);
    expect(model!.invalid).toEqual([
      { field: "actor", problem: { kind: "control-characters" } },
      { field: "from", problem: { kind: "invalid-date" } },
    ]);
    expect(model!.linkParams).toEqual({ kind: "transition" });
    expect(model!.page.rows).toHaveLength(2);
  });

  it("pages by keyset: after the newest row, the next page starts below it", async () => {
    signInAs("manager", ["au-home"]);
    const first = (await explorer()).model!;
    const newest = first.page.rows[0]!;
    const { model } = await explorer(`after=${encodeURIComponent(encodeCursor({ at: newest.at, log: newest.log, id: newest.id }))}`);
    expect(model!.firstPage).toBe(false);
    expect(model!.page.rows.map((r) => r.cursor)).toEqual(first.page.rows.slice(1).map((r) => r.cursor));
    expect(model!.linkParams).toEqual({});
  });

  it("refuses a role without audit:view, and a query string that is none (a raw NUL, too long) with a 400", async () => {
    signInAs("ops", ["au-home"]);
    expect((await explorer()).status).toBe(403);
    signInAs("manager", ["au-home"]);
    const raw = await GET(new NextRequest("http://localhost/api/console/audit?query=actor%3Da%00"), { params: Promise.resolve({}) });
    expect(raw.status).toBe(400);
    expect(Object.keys(((await raw.json()) as { error: { fields: object } }).error.fields)).toEqual(["query"]);
    expect((await explorer(`text=${"x".repeat(4_000)}`)).status).toBe(400);
  });

  it("offers no export to a viewer without a product, and reads no fact", async () => {
    signInAs("manager", []);
    const { model } = await explorer();
    expect(model!.tenants).toEqual([]);
    expect(model!.page.rows).toEqual([]);
    expect(model!.exportHref).toBeNull();
  });
});
