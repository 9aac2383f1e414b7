import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbedded, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { closePool, getPool } from "@/lib/db/pool";
import { disconnectPrisma } from "@/lib/db/prisma";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { batchSummary, startBatch, runBatchChunk } from "./batches";

// The embedded database (PGlite) runs one transaction at a time. A bulk run that held a transaction
// open while repairs ran on other connections would wait on itself there forever; this proves a
// batch of 200 orders completes on it, as `npm start` runs it.

let db: EmbeddedDatabase;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "orderops-bulk-embedded-"));
  db = await openEmbedded({ dataDir: dir });
  process.env.DATABASE_URL = db.url;
  const client = await getPool().connect();
  try {
    await migrate(client);
  } finally {
    client.release();
  }
  await ensureTenant(getPool(), tenantSpec("bulk-embedded"));
});

afterAll(async () => {
  await disconnectPrisma();
  await closePool();
  await db?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("bulk compensation on the embedded database", () => {
  it("a batch of 200 orders completes, every order delivered once", { timeout: 240_000 }, async () => {
    const orderNos: string[] = [];
    for (let i = 0; i < 200; i++) {
      const order = await createOrder(getPool(), { tenantId: "bulk-embedded", amount: 6_00 });
      await transit({ orderId: order.id, event: "pay", bizKey: `t-${order.id}`, amount: 6_00, actor: "channel", source: "callback" });
      orderNos.push(order.orderNo);
    }
    const batchId = randomUUID();
    await startBatch({ batchId, tenantId: "bulk-embedded", orderNos, reason: "outage on the demo", actor: "staff:ops@example.com" });

    let handled = 0;
    while ((await batchSummary(batchId))!.counts.pending > 0) handled += await runBatchChunk({ batchId, actor: "staff:ops@example.com", limit: 20 });

    expect(handled).toBe(200);
    expect((await batchSummary(batchId))!.counts).toEqual({ pending: 0, applied: 200, "nothing-to-do": 0, refused: 0, failed: 0 });
    const { rows } = await getPool().query(
      `SELECT o.state, count(*)::int AS orders, sum((SELECT sum(quantity) FROM grants g WHERE g.order_id = o.id))::int AS granted
       FROM orders o WHERE o.tenant_id = 'bulk-embedded' GROUP BY o.state`,
    );
    expect(rows).toEqual([{ state: "delivered", orders: 200, granted: 200 * 60 }]);
  });
});
