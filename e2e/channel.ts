// A payment channel and a game for the specs that need an order in a known state: orders are placed
// and paid through the integration API with the product's own key, the way the real ones arrive.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import type pg from "pg";
import { expect } from "./fixtures";

export interface TestOrder {
  readonly id: number;
  readonly tenantId: string;
  readonly orderNo: string;
  readonly playerId: string;
  readonly paymentTxn: string;
}

/** Names the key after the channel: the order page shows a payment's channel by its caller's name. */
export async function channelKey(db: pg.Pool, tenantId: string, channel: string): Promise<string> {
  const prefix = randomBytes(6).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  await db.query(`INSERT INTO api_keys (tenant_id, name, prefix, secret_hash, created_by) VALUES ($1, $2, $3, $4, 'e2e') ON CONFLICT DO NOTHING`, [
    tenantId,
    `${channel}-${prefix}`,
    prefix,
    createHash("sha256").update(secret).digest("hex"),
  ]);
  return `oo_${prefix}_${secret}`;
}

/**
 * A fresh order of `tenantId` (amount in minor units), paid by the channel unless `paid: false`.
 * `stuckMinutes`: moved back in time so it has been in its state that long.
 */
export async function placeOrder(
  db: pg.Pool,
  request: APIRequestContext,
  spec: { tenantId: string; amount: number; paid?: boolean; stuckMinutes?: number },
): Promise<TestOrder> {
  const key = await channelKey(db, spec.tenantId, "alipay");
  const headers = { authorization: `Bearer ${key}` };
  const suffix = randomUUID().slice(0, 8);
  const orderNo = `E2E-${spec.tenantId.slice(0, 2).toUpperCase()}-${suffix}`;
  const playerId = `e2e-player-${suffix}`;
  const created = await request.post("/api/v1/orders", {
    headers,
    data: { orderNo, playerId, currency: "CNY", amount: spec.amount, lines: [{ sku: "e2e-gems", kind: "currency", quantity: 10 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const paymentTxn = `ali-e2e-${suffix}`;
  if (spec.paid !== false) {
    const paid = await request.post(`/api/v1/orders/${orderNo}/events`, { headers, data: { event: "pay", bizKey: paymentTxn, amount: spec.amount } });
    expect(paid.status(), await paid.text()).toBe(200);
  }
  if (spec.stuckMinutes) await db.query(`UPDATE orders SET state_at = now() - make_interval(mins => $2) WHERE tenant_id = $1 AND order_no = $3`, [spec.tenantId, spec.stuckMinutes, orderNo]);
  const { rows } = await db.query(`SELECT id FROM orders WHERE tenant_id = $1 AND order_no = $2`, [spec.tenantId, orderNo]);
  return { id: Number(rows[0].id), tenantId: spec.tenantId, orderNo, playerId, paymentTxn };
}
