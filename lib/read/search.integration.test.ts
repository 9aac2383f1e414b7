import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/search/route";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { SearchModel } from "./search";

// Where the search page sends a term, through its route: the one order of the caller's products it
// names, else the list; never an order of another product.

useFreshDatabase();

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("se-home"));
  await ensureTenant(pool, tenantSpec("se-other"));
  await createOrder(pool, { tenantId: "se-home", orderNo: "SE-ONE", playerId: "p-alone" });
  await createOrder(pool, { tenantId: "se-home", orderNo: "SE-TWO", playerId: "p-twice" });
  await createOrder(pool, { tenantId: "se-home", orderNo: "SE-THREE", playerId: "p-twice" });
  await createOrder(pool, { tenantId: "se-other", orderNo: "SE-ELSEWHERE", playerId: "p-elsewhere" });
});

async function search(q: string | null): Promise<{ status: number; model: SearchModel | null }> {
  const query = q === null ? "" : `?${new URLSearchParams({ q })}`;
  const response = await GET(new NextRequest(`http://localhost/api/console/search${query}`), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<SearchModel>(await response.text()) : null };
}

describe("GET /api/console/search", () => {
  it("names the one order a term matches (an order no in any letter case, a player id), else the list", async () => {
    signInAs("agent", ["se-home"]);
    expect((await search("SE-ONE")).model).toEqual({ kind: "order", tenantId: "se-home", orderNo: "SE-ONE" });
    expect((await search("  se-one ")).model).toEqual({ kind: "order", tenantId: "se-home", orderNo: "SE-ONE" });
    expect((await search("p-alone")).model).toEqual({ kind: "order", tenantId: "se-home", orderNo: "SE-ONE" });
    expect((await search("p-twice")).model).toEqual({ kind: "list" });
    expect((await search("nothing-at-all")).model).toEqual({ kind: "list" });
  });

  it("never finds another product's order", async () => {
    signInAs("agent", ["se-home"]);
    expect((await search("SE-ELSEWHERE")).model).toEqual({ kind: "list" });
    signInAs("agent", ["se-home", "se-other"]);
    expect((await search("SE-ELSEWHERE")).model).toEqual({ kind: "order", tenantId: "se-other", orderNo: "SE-ELSEWHERE" });
  });

  it("refuses a term the list would have to explain (none, too long) and an admin", async () => {
    signInAs("agent", ["se-home"]);
    expect((await search(null)).status).toBe(400);
    expect((await search("   ")).status).toBe(400);
    expect((await search("x".repeat(201))).status).toBe(400);
    signInAs("admin", ["se-home"]);
    expect((await search("SE-ONE")).status).toBe(403);
  });
});
