import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/overview/route";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { OverviewModel } from "./overview";

// The overview's read model through its route: the caller's products only, stuck orders counted per
// state and per product as the queues count them, and the approvals card by role.

useFreshDatabase();

const HOURS_AGO = (h: number) => new Date(Date.now() - h * 3_600_000);

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("ov-home"));
  await ensureTenant(pool, tenantSpec("ov-other"));
  // Created 2 h ago: past the 30 min a created order may wait (stuck); one just now is not.
  await createOrder(pool, { tenantId: "ov-home", orderNo: "OV-1", createdAt: HOURS_AGO(2) });
  await createOrder(pool, { tenantId: "ov-home", orderNo: "OV-2", createdAt: HOURS_AGO(3) });
  await createOrder(pool, { tenantId: "ov-home", orderNo: "OV-3" });
  await createOrder(pool, { tenantId: "ov-other", orderNo: "OV-ELSEWHERE", createdAt: HOURS_AGO(2) });
});

async function overview(): Promise<{ status: number; model: OverviewModel | null }> {
  const response = await GET(new NextRequest("http://localhost/api/console/overview"), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<OverviewModel>(await response.text()) : null };
}

describe("GET /api/console/overview", () => {
  it("counts the caller's own products only, stuck orders per state and per product", async () => {
    signInAs("agent", ["ov-home"]);
    const { model } = await overview();
    expect(model!.products.map((p) => p.tenantId)).toEqual(["ov-home"]);
    expect(model!.products[0]!.byState.created).toBe(3);
    expect(model!.products[0]!.stuck).toEqual({ count: 2, more: false });
    expect(model!.stuck).toEqual({ count: 2, more: false });
    expect(model!.stuckPerState.created).toEqual({ count: 2, more: false });
    expect(model!.stuckPerState.paid).toEqual({ count: 0, more: false });
    expect(model!.canApprove).toBe(false);
    expect(model!.unsentRefunds).toEqual([]);
    expect(model!.reviewsNearDeadline.count).toBe(0);
  });

  it("adds up every product in scope, and offers the approvals to a manager", async () => {
    signInAs("manager", ["ov-home", "ov-other"]);
    const { model } = await overview();
    expect(model!.products.map((p) => [p.tenantId, p.stuck.count])).toEqual([
      ["ov-home", 2],
      ["ov-other", 1],
    ]);
    expect(model!.stuck).toEqual({ count: 3, more: false });
    expect(model!.canApprove).toBe(true);
  });

  it("refuses an admin, who holds no order permission (the page sends them to the staff list)", async () => {
    signInAs("admin", ["ov-home"]);
    expect((await overview()).status).toBe(403);
  });
});
