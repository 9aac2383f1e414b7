import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/orders/route";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import type { OrdersListModel } from "./orders-list";

// The orders list's JSON route: the page's query string, read field by field — a bad filter is
// dropped and named, never a refused page — over the caller's own products only.

useFreshDatabase();

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("list-home"));
  await ensureTenant(pool, tenantSpec("list-other"));
  for (let i = 1; i <= 55; i++) await createOrder(pool, { tenantId: "list-home", orderNo: `L-${String(i).padStart(3, "0")}`, playerId: `p-${i % 3}` });
  await createOrder(pool, { tenantId: "list-other", orderNo: "L-ELSEWHERE" });
});

async function list(query: string): Promise<{ status: number; model: OrdersListModel | null; text: string }> {
  const url = `http://localhost/api/console/orders?${new URLSearchParams({ query })}`;
  const response = await GET(new NextRequest(url), { params: Promise.resolve({}) });
  const text = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<OrdersListModel>(text) : null, text };
}

describe("GET /api/console/orders", () => {
  it("gives the newest 50 of the caller's products, the exact total and the link to the next page", async () => {
    signInAs("agent", ["list-home"]);
    const { model } = await list("");
    expect(model!.result.rows).toHaveLength(50);
    expect(model!.result.rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(model!.result.rows.every((r) => r.tenantId === "list-home")).toBe(true);
    expect(model!.result.total).toEqual({ kind: "exact", value: 55 });
    expect(model!.firstPage).toBe(true);
    expect(model!.pages.newest).toBeNull();
    expect(model!.pages.older).toMatch(/^\/orders\?.*after=/);
    expect(model!.canExport).toBe(false);

    const older = await list(model!.pages.older!.slice("/orders?".length));
    expect(older.model!.result.rows).toHaveLength(5);
    expect(older.model!.pages.newest).toBe("/orders");
  });

  it("drops each filter it cannot use and says why, a NUL and another product's name included", async () => {
    signInAs("manager", ["list-home"]);
    const { status, model } = await list("q=p-1%00&state=nope&from=2026-13-45&tenant=list-other&tz=Mars/Olympus_Mons");
    expect(status).toBe(200);
    expect(model!.errors).toEqual({ q: "control", state: "state", from: "date", tenant: "tenant" });
    expect(model!.unknownZone).toBe("Mars/Olympus_Mons");
    expect(model!.result.rows.map((r) => r.orderNo)).not.toContain("L-ELSEWHERE");
    expect(model!.filters).toEqual({ tz: "UTC" });
    expect(model!.canExport).toBe(true);
  });

  it("finds by the search box within the caller's products", async () => {
    signInAs("agent", ["list-home"]);
    expect((await list("q=L-007")).model!.result.rows.map((r) => r.orderNo)).toEqual(["L-007"]);
    expect((await list("q=L-ELSEWHERE")).model!.result.rows).toEqual([]);
  });

  it("refuses a caller with no session", async () => {
    signOut();
    expect((await list("")).status).toBe(401);
  });
});
