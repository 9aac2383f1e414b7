import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as batchResults } from "@/app/api/console/bulk/[batchId]/route";
import { GET } from "@/app/api/console/bulk/route";
import { startBatch } from "@/lib/bulk/batches";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { BulkBatchResults, BulkModel } from "./bulk";

// The bulk page's read model through its route: the caller's products and their batches only; and
// one batch's results, read the same way (a read model, dates kept) by the page's results table.

useFreshDatabase();

const batches = { home: randomUUID(), other: randomUUID() };

beforeAll(async () => {
  const pool = getPool();
  for (const [tenantId, batchId] of [
    ["bk-home", batches.home],
    ["bk-other", batches.other],
  ] as const) {
    await ensureTenant(pool, tenantSpec(tenantId));
    const order = await createOrder(pool, { tenantId });
    await startBatch({ batchId, tenantId, orderNos: [order.orderNo], reason: "outage at 14:00", actor: "staff:ops@example.com" });
  }
});

async function bulk(): Promise<{ status: number; model: BulkModel | null }> {
  const response = await GET(new NextRequest("http://localhost/api/console/bulk"), { params: Promise.resolve({}) });
  return { status: response.status, model: response.ok ? superjson.parse<BulkModel>(await response.text()) : null };
}

describe("GET /api/console/bulk", () => {
  it("offers the caller's products and lists their batches only", async () => {
    signInAs("ops", ["bk-home"]);
    const { model } = await bulk();
    expect(model!.tenants).toEqual(["bk-home"]);
    expect(model!.batches.map((b) => [b.batchId, b.tenantId, b.total, b.counts.pending])).toEqual([[batches.home, "bk-home", 1, 1]]);
    expect(model!.batches[0]!.createdAt).toBeInstanceOf(Date);
  });

  it("lists every product's batches to ops of both", async () => {
    signInAs("ops", ["bk-home", "bk-other"]);
    expect((await bulk()).model!.batches.map((b) => b.batchId).sort()).toEqual([batches.home, batches.other].sort());
  });

  it("refuses an agent, who does not run batches", async () => {
    signInAs("agent", ["bk-home"]);
    expect((await bulk()).status).toBe(403);
  });
});

describe("GET /api/console/bulk/[batchId]", () => {
  const results = (batchId: string) => batchResults(new NextRequest(`http://localhost/api/console/bulk/${batchId}`), { params: Promise.resolve({ batchId }) });

  it("answers a batch's results as a read model, and another product's batch as not found", async () => {
    signInAs("ops", ["bk-home"]);
    const response = await results(batches.home);
    const model = superjson.parse<BulkBatchResults>(await response.text());
    expect(model.summary).toMatchObject({ batchId: batches.home, tenantId: "bk-home", total: 1 });
    expect(model.items.map((i) => i.status)).toEqual(["pending"]);
    expect(model.items[0]!.updatedAt).toBeInstanceOf(Date);
    expect((await results(batches.other)).status).toBe(404);
  });
});
