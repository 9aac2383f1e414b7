// Database fixtures for the App Store tests: a tenant connected to the test App Store app, a
// delivered store order paid by a given transaction, the route called as Apple calls it, and the
// ledger of an order as the assertions compare it.
import { NextRequest } from "next/server";
import { POST } from "@/app/api/v1/stores/apple/notifications/[tenant]/route";
import { getPool } from "@/lib/db/pool";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { playerSummary } from "@/lib/players/queries/player-summary";
import { createOrder, type LineSpec } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import type { AppleEnvironment } from "@/lib/settings/apple-environments";
import { updateTenantSettings } from "@/lib/settings/update-tenant-settings";
import { listTenantSettings } from "@/lib/settings/tenant-settings";

export const BUNDLE_ID = "com.example.game";

export async function connectedTenant(id: string, app: { bundleId: string | null; environment: AppleEnvironment | null } = { bundleId: BUNDLE_ID, environment: "Sandbox" }) {
  await ensureTenant(getPool(), tenantSpec(id));
  const [settings] = await listTenantSettings([id]);
  await updateTenantSettings(id, settings!.updatedAt, { field: "apple_store", value: app }, "staff:manager@example.com");
}

const STORE_LINES: readonly LineSpec[] = [
  { sku: "gems-60", kind: "currency", quantity: 60 },
  { sku: "skin-cat", kind: "cosmetic", quantity: 1 },
];

/**
 * A store order, paid by `transactionId` (the store's: Apple transactionId, Google orderId) and fully
 * delivered: by default 60 gems and a cosmetic from the App Store.
 */
export async function deliveredStoreOrder(
  tenantId: string,
  transactionId: string,
  options: { channel?: "appstore" | "googleplay"; lines?: readonly LineSpec[] } = {},
): Promise<{ id: number; orderNo: string }> {
  const lines = options.lines ?? STORE_LINES;
  const order = await createOrder(getPool(), { tenantId, amount: 6_00, lines });
  const ok = (r: { result: string }) => {
    if (r.result !== "applied") throw new Error(`fixture step ${r.result}`);
  };
  ok(await transit({ orderId: order.id, event: "pay", bizKey: transactionId, amount: 6_00, actor: options.channel ?? "appstore", source: "callback" }));
  ok(await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", actor: "game", source: "api" }));
  for (const line of lines) {
    ok(await grant({ orderId: order.id, sku: line.sku, quantity: line.quantity, grantId: `${line.sku}-${transactionId}`, actor: "game", source: "api" }));
  }
  ok(await transit({ orderId: order.id, event: "confirm-delivery", bizKey: "", actor: "game", source: "api" }));
  return { id: order.id, orderNo: order.orderNo };
}

/** POSTs a body to the notification route as Apple does; answers the status and the JSON. */
export async function postAppleNotification(tenant: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await POST(
    new NextRequest("http://localhost/api/v1/stores/apple/notifications/x", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    { params: Promise.resolve({ tenant }) },
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

export interface OrderLedger {
  readonly state: string;
  /** Per line: what the player holds now by the grants ledger (delivered, less taken back, plus given back). */
  readonly held: Record<string, number>;
  /** Per take-back rule, the units still taken back (negative), from take_backs; rules that net to zero are left out. */
  readonly takenBack: Record<string, number>;
  /** Every refund transition: event, source and actor. */
  readonly refundTransitions: readonly string[];
  readonly cases: readonly string[];
}

/** The order's ledger as the store tests compare it. */
export async function orderLedger(orderId: number): Promise<OrderLedger> {
  const pool = getPool();
  const [order, grants, takeBacks, transitions, cases] = await Promise.all([
    pool.query<{ state: string }>(`SELECT state FROM orders WHERE id = $1`, [orderId]),
    pool.query<{ sku: string; held: number }>(`SELECT sku, sum(quantity)::int AS held FROM grants WHERE order_id = $1 GROUP BY sku ORDER BY sku`, [orderId]),
    pool.query<{ rule: string; units: number }>(
      `SELECT rule, sum(units)::int AS units FROM take_backs WHERE order_id = $1 GROUP BY rule HAVING sum(units) <> 0 ORDER BY rule`,
      [orderId],
    ),
    pool.query<{ t: string }>(
      `SELECT event || '/' || source || '/' || actor AS t FROM order_transitions
       WHERE order_id = $1 AND event IN ('request-refund', 'confirm-refund', 'reject-refund', 'reverse-refund') ORDER BY id`,
      [orderId],
    ),
    pool.query<{ k: string }>(`SELECT kind || ':' || status AS k FROM order_exceptions WHERE order_id = $1 ORDER BY id`, [orderId]),
  ]);
  return {
    state: order.rows[0]!.state,
    held: Object.fromEntries(grants.rows.map((g) => [g.sku, g.held])),
    takenBack: Object.fromEntries(takeBacks.rows.map((t) => [t.rule, t.units])),
    refundTransitions: transitions.rows.map((r) => r.t),
    cases: cases.rows.map((r) => r.k),
  };
}

/**
 * What the player's refunded total counts for this order, read as the console reads it (the player's
 * money, lib/players/queries/player-summary.ts): the order's player must have no other order.
 */
export async function refundedMoneyOf(orderId: number): Promise<number> {
  const { rows } = await getPool().query<{ tenantId: string; playerId: string; n: number }>(
    `SELECT o.tenant_id AS "tenantId", o.player_id AS "playerId", (SELECT count(*)::int FROM orders p WHERE p.tenant_id = o.tenant_id AND p.player_id = o.player_id) AS n
     FROM orders o WHERE o.id = $1`,
    [orderId],
  );
  const order = rows[0]!;
  if (order.n !== 1) throw new Error(`refundedMoneyOf: player ${order.playerId} has ${order.n} orders`);
  const { money } = await playerSummary(order.tenantId, order.playerId);
  return money[0]!.refunded;
}
