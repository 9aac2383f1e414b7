import { beforeAll, describe, expect, it } from "vitest";
import { requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { getPool } from "@/lib/db/pool";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { pendingApprovalCounts } from "./attention-counts";

useFreshDatabase();

beforeAll(async () => {
  const pool = getPool();
  for (const tenantId of ["one", "two", "out"]) await ensureTenant(pool, tenantSpec(tenantId));
  for (const tenantId of ["one", "one", "two", "out"]) {
    const order = await createOrder(pool, { tenantId, amount: 500_00 });
    await requestRefundApproval({ tenantId, orderId: order.id, requestedBy: "staff:agent@example.com", reason: "asked", requestKey: `k-${order.id}` });
  }
});

describe("attention counts", () => {
  it("counts pending refund approvals per product in scope", async () => {
    expect(await pendingApprovalCounts(["one", "two"])).toEqual({ one: 2, two: 1 });
    expect(await pendingApprovalCounts([])).toEqual({});
  });
});
