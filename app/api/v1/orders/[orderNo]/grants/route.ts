import { NextResponse } from "next/server";
import { apiOrderRoute } from "@/lib/api/route";
import { outcome } from "@/lib/api/v1/respond";
import { grantBody } from "@/lib/api/v1/schemas";
import { grant } from "@/lib/orders/grant";
import { assertNever } from "@/lib/orders/machine";
import { getApiOrder } from "@/lib/api/v1/api-order";

export const POST = apiOrderRoute({ name: "v1.orders.grants", input: grantBody }, async ({ caller, actor, input, order }) => {
  const result = await grant({ orderId: order.id, actor, source: "api", ...input });
  if (result.result === "not-found") throw new Error(`order ${order.id} vanished`);
  const view = await getApiOrder(caller.tenantId, order.orderNo);
  switch (result.result) {
    case "applied":
    case "duplicate":
      return NextResponse.json({ result: result.result, order: view });
    case "over-delivery":
    case "invalid-state":
      return outcome(409, result.result, result.refusal, { order: view });
    case "unknown-sku":
    case "invalid-quantity":
    case "reserved-grant-id":
      return outcome(400, result.result, result.refusal, { order: view });
    default:
      return assertNever(result);
  }
});
