import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { notFound, outcome } from "@/lib/api/v1/respond";
import { grantBody } from "@/lib/api/v1/schemas";
import { grant } from "@/lib/orders/grant";
import { assertNever } from "@/lib/orders/machine";
import { findOrderId, getApiOrder } from "@/lib/orders/queries/api-order";

export const POST = apiRoute({ name: "v1.orders.grants", input: grantBody }, async ({ caller, actor, input, params }) => {
  const orderNo = String(params.orderNo);
  const orderId = await findOrderId(caller.tenantId, orderNo);
  if (orderId === null) return notFound(orderNo);

  const result = await grant({ orderId, actor, source: "api", ...input });
  if (result.result === "not-found") return notFound(orderNo);
  const order = await getApiOrder(caller.tenantId, orderNo);
  switch (result.result) {
    case "applied":
    case "duplicate":
      return NextResponse.json({ result: result.result, order });
    case "over-delivery":
      return outcome(409, "over-delivery", `${result.line!.granted} of ${result.line!.quantity} already granted; ${input.quantity} more would exceed the line.`, { order });
    case "invalid-state":
      return outcome(409, "invalid-state", `Grants are only accepted while the order is paid or delivering; it is ${result.order.state}.`, { order });
    case "unknown-sku":
      return outcome(400, "unknown-sku", `Order ${orderNo} has no line ${input.sku}.`, { order });
    case "invalid-quantity":
      return outcome(400, "invalid-quantity", "quantity must be a positive whole number.", { order });
    default:
      return assertNever(result);
  }
});
