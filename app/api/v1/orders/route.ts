import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { outcome } from "@/lib/api/v1/respond";
import { createOrderBody } from "@/lib/api/v1/schemas";
import { getApiOrder } from "@/lib/api/v1/api-order";
import { placeOrder } from "@/lib/orders/place-order";

// POST /api/v1/orders: 201 created; the same orderNo with an identical body 200; a different body 409.
export const POST = apiRoute({ name: "v1.orders.create", input: createOrderBody }, async ({ caller, input }) => {
  const placed = await placeOrder({ tenantId: caller.tenantId, ...input });
  const order = await getApiOrder(caller.tenantId, input.orderNo);
  if (placed.result === "conflict") {
    return outcome(409, "conflict", { kind: "order-differs", orderNo: input.orderNo, fields: placed.differences }, { order });
  }
  return NextResponse.json({ order }, { status: placed.result === "created" ? 201 : 200 });
});
