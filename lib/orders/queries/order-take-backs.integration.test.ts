import { beforeAll, describe, expect, it } from "vitest";
import { takeBackPreview } from "@/lib/orders/take-back-preview";
import { getPool } from "@/lib/db/pool";
import { grant } from "@/lib/orders/grant";
import { transit } from "@/lib/orders/transit";
import { getOrderPageFacts } from "@/lib/read/order-page-facts";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { getOrderDetail } from "./order-detail";

useFreshDatabase();

const T = "taking-back";
const actor = { actor: "game:server", source: "api" } as const;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(T));
  await ensureTenant(getPool(), tenantSpec("other"));
});

async function delivered(orderNo: string, tenantId = T) {
  const order = await createOrder(getPool(), {
    tenantId,
    orderNo,
    lines: [
      { sku: "gems-60", kind: "currency", quantity: 60 },
      { sku: "skin-1", kind: "cosmetic", quantity: 1 },
    ],
  });
  await transit({ orderId: order.id, event: "pay", bizKey: `txn-${orderNo}`, amount: order.amount, ...actor, source: "callback" });
  await transit({ orderId: order.id, event: "begin-delivery", bizKey: "", ...actor });
  await grant({ orderId: order.id, sku: "gems-60", quantity: 60, grantId: "g-1", ...actor });
  await grant({ orderId: order.id, sku: "skin-1", quantity: 1, grantId: "g-2", ...actor });
  await transit({ orderId: order.id, event: "confirm-delivery", bizKey: "", ...actor });
  return order;
}

describe("the order page's take-backs", () => {
  it("previews a full refund from the lines and the tenant's rules, read in the page's one facts statement", async () => {
    await delivered("TB-1");
    const [detail, facts] = await Promise.all([getOrderDetail(T, "TB-1"), getOrderPageFacts(T, "TB-1")]);
    expect(facts).toMatchObject({ takeBackRules: { currency: "revoke", stamina: "revoke", cosmetic: "write-off", item: "write-off" }, revokeEndpointSet: false });
    expect(takeBackPreview(detail!.lines, facts!.takeBackRules)).toEqual([
      { sku: "gems-60", kind: "currency", held: 60, units: 60, rule: "revoke" },
      { sku: "skin-1", kind: "cosmetic", held: 1, units: 1, rule: "write-off" },
    ]);

    await getPool().query(`UPDATE tenant_settings SET take_back_rules = '{"currency": "negative-balance"}', revoke_endpoint_url = 'https://game.example.com/revoke' WHERE tenant_id = $1`, [T]);
    // A kind missing from the stored object takes its default.
    expect(await getOrderPageFacts(T, "TB-1")).toMatchObject({ takeBackRules: { currency: "negative-balance", cosmetic: "write-off" }, revokeEndpointSet: true });
    await getPool().query(`UPDATE tenant_settings SET take_back_rules = DEFAULT, revoke_endpoint_url = NULL WHERE tenant_id = $1`, [T]);
  });

  it("lists what a confirmed refund took back, oldest first, with each row's rule and status; none before", async () => {
    const order = await delivered("TB-2");
    const takeBacks = async (tenant: string, orderNo: string) => (await getOrderPageFacts(tenant, orderNo))?.takeBacks ?? null;
    expect(await takeBacks(T, "TB-2")).toEqual([]);

    await transit({ orderId: order.id, event: "request-refund", bizKey: "rf-1", ...actor });
    await transit({ orderId: order.id, event: "confirm-refund", bizKey: "rf-1", ...actor });
    await getPool().query(`UPDATE take_backs SET status = 'failed', attempts = 3, last_error = 'no revoke endpoint' WHERE order_id = $1 AND rule = 'revoke'`, [order.id]);

    const rows = (await takeBacks(T, "TB-2"))!;
    expect(rows).toMatchObject([
      { sku: "gems-60", kind: "currency", units: -60, rule: "revoke", status: "failed", attempts: 3, lastError: "no revoke endpoint" },
      { sku: "skin-1", kind: "cosmetic", units: -1, rule: "write-off", status: "recorded", attempts: 0, lastError: null },
    ]);
    expect(rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(typeof rows[0]!.id).toBe("number");

    // The page now offers no refund: the preview of what is left holds nothing.
    const detail = await getOrderDetail(T, "TB-2");
    expect(takeBackPreview(detail!.lines, (await getOrderPageFacts(T, "TB-2"))!.takeBackRules).map((l) => [l.held, l.units])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    // Another product's order of the same id space never shows here.
    expect(await takeBacks("other", "TB-2")).toBeNull();
  });
});
