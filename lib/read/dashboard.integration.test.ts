import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as daily } from "@/app/api/console/dashboard/daily/route";
import { GET } from "@/app/api/console/dashboard/route";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { DashboardDailyModel, DashboardModel } from "./dashboard";

// The dashboard's read models through their routes: the counts for the caller's products only
// (stuck per state with each product's threshold), and a product's 30-day series for a product in
// scope only (another product's is not found, and the attempt is audited).

useFreshDatabase();

const HOURS_AGO = (h: number) => new Date(Date.now() - h * 3_600_000);

beforeAll(async () => {
  const pool = getPool();
  await ensureTenant(pool, tenantSpec("db-home"));
  await ensureTenant(pool, tenantSpec("db-other"));
  // Created 2 h ago: past the 30 min a created order may wait (stuck); one just now is not.
  await createOrder(pool, { tenantId: "db-home", orderNo: "DB-1", createdAt: HOURS_AGO(2) });
  await createOrder(pool, { tenantId: "db-home", orderNo: "DB-2" });
  // Paid, asked back and refunded today: one refund on today's bar.
  const refunded = await createOrder(pool, { tenantId: "db-home", orderNo: "DB-3", amount: 6_00 });
  await transit({ orderId: refunded.id, event: "pay", bizKey: "txn-db-3", amount: 6_00, actor: "channel:alipay", source: "callback" });
  await transit({ orderId: refunded.id, event: "request-refund", bizKey: "rf-db-3", actor: "staff:agent@example.com", source: "console", reason: "asked" });
  await transit({ orderId: refunded.id, event: "confirm-refund", bizKey: "rc-db-3", actor: "channel:alipay", source: "callback" });
  await createOrder(pool, { tenantId: "db-other", orderNo: "DB-ELSEWHERE", createdAt: HOURS_AGO(2) });
});

async function read<T>(handler: typeof GET, url: string): Promise<{ status: number; model: T | null }> {
  const response = await handler(new NextRequest(url), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<T>(await response.text()) : null };
}

const counts = () => read<DashboardModel>(GET, "http://localhost/api/console/dashboard");
const series = (tenant: string) => read<DashboardDailyModel>(daily, `http://localhost/api/console/dashboard/daily?tenant=${encodeURIComponent(tenant)}`);

describe("GET /api/console/dashboard", () => {
  it("counts the caller's own products only: orders per state, and stuck ones per state with the product's threshold", async () => {
    signInAs("agent", ["db-home"]);
    const { model } = await counts();
    expect(model!.products.map((p) => p.tenantId)).toEqual(["db-home"]);
    const [home] = model!.products;
    expect(home!.total).toBe(3);
    expect(home!.byState.created).toBe(2);
    expect(home!.byState.refunded).toBe(1);
    expect(home!.stuck.map((s) => [s.state, s.count, s.thresholdSeconds])).toEqual([
      ["created", 1, 1_800],
      ["paid", 0, 300],
      ["delivering", 0, 600],
      ["refunding", 0, 259_200],
    ]);
    expect(home!.stuckTotal).toEqual({ count: 1, more: false });
  });

  it("lists every product in scope", async () => {
    signInAs("manager", ["db-home", "db-other"]);
    const { model } = await counts();
    expect(model!.products.map((p) => [p.tenantId, p.total, p.stuckTotal.count])).toEqual([
      ["db-home", 3, 1],
      ["db-other", 1, 1],
    ]);
  });

  it("refuses an admin, who holds no order permission", async () => {
    signInAs("admin", ["db-home"]);
    expect((await counts()).status).toBe(403);
    expect((await series("db-home")).status).toBe(403);
  });
});

describe("GET /api/console/dashboard/daily", () => {
  it("gives a product in scope its 30 UTC days, today last, with today's refund and the lost-order threshold", async () => {
    signInAs("agent", ["db-home"]);
    const { model } = await series("db-home");
    expect(model!.tenantId).toBe("db-home");
    expect(model!.days).toHaveLength(30);
    expect(model!.days.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(model!.days.at(-1)!.refunds).toBe(1);
    expect(model!.days.reduce((n, d) => n + d.refunds, 0)).toBe(1);
    // paid (5 min) + delivering (10 min).
    expect(model!.lostAfterSeconds).toBe(900);
  });

  it("answers another product's series as not found, and audits the attempt", async () => {
    signInAs("agent", ["db-home"]);
    const denied = () => getPrisma().auditEvent.count({ where: { action: "access.denied", target: "tenant:db-other" } });
    const before = await denied();
    const { status } = await series("db-other");
    expect(status).toBe(404);
    expect(await denied()).toBe(before + 1);
    expect((await read(daily, "http://localhost/api/console/dashboard/daily")).status).toBe(400);
  });
});
