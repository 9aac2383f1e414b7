import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { getPool } from "@/lib/db/pool";
import { transit } from "@/lib/orders/transit";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { grantLine } from "./grant-line";


useFreshDatabase();

const as = (role: Role) => signInAs(role, ["comp"]);

beforeAll(() => ensureTenant(getPool(), tenantSpec("comp")));

describe("grantLine (compensating grant)", () => {
  it("applies once per form, refuses over-delivery with the numbers, and is ops-only", async () => {
    const order = await createOrder(getPool(), { tenantId: "comp", lines: [{ sku: "gems-10", kind: "currency", quantity: 10 }] });
    await transit({ orderId: order.id, event: "pay", bizKey: "t", amount: order.amount, actor: "channel", source: "callback" });
    const form = { tenant: "comp", orderNo: order.orderNo, sku: "gems-10", reason: "lost in the outage" };

    as("agent");
    expect(await grantLine({ ...form, quantity: 1, grantKey: randomUUID() })).toMatchObject({ ok: false, error: { code: "forbidden" } });

    as("ops");
    const key = randomUUID();
    const [a, b] = await Promise.all([grantLine({ ...form, quantity: 9, grantKey: key }), grantLine({ ...form, quantity: 9, grantKey: key })]);
    expect([a, b].map((r) => (r.ok ? r.data.result : r.error.code)).sort()).toEqual(["applied", "duplicate"]);

    const over = await grantLine({ ...form, quantity: 2, grantKey: randomUUID() });
    expect(over).toEqual({ ok: true, data: { result: "refused", refusal: { kind: "over-delivery", sku: "gems-10", quantity: 10, granted: 9, requested: 2 } } });

    const { rows } = await getPool().query(`SELECT grant_id, quantity, actor, source, reason FROM grants WHERE order_id = $1`, [order.id]);
    expect(rows).toEqual([{ grant_id: `console:${key}`, quantity: 9, actor: "staff:ops@example.com", source: "console", reason: "lost in the outage" }]);
  });
});
