import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { notFound, outcome } from "@/lib/api/v1/respond";
import { eventBody } from "@/lib/api/v1/schemas";
import { assertNever, type OrderEvent, type Source } from "@/lib/orders/machine";
import { findOrderId, getApiOrder } from "@/lib/orders/queries/api-order";
import { transit } from "@/lib/orders/transit";

// Money facts reported by a payment channel are callbacks; everything else is a plain API call.
const CALLBACK_EVENTS: readonly OrderEvent[] = ["pay", "confirm-refund", "reject-refund"];

export const POST = apiRoute({ name: "v1.orders.events", input: eventBody }, async ({ caller, actor, input, params }) => {
  const orderNo = String(params.orderNo);
  const orderId = await findOrderId(caller.tenantId, orderNo);
  if (orderId === null) return notFound(orderNo);

  const source: Source = CALLBACK_EVENTS.includes(input.event) ? "callback" : "api";
  const result = await transit({ orderId, actor, source, ...input });
  if (result.result === "not-found") return notFound(orderNo);
  const order = await getApiOrder(caller.tenantId, orderNo);
  switch (result.result) {
    case "applied":
    case "duplicate":
      return NextResponse.json({ result: result.result, order });
    case "illegal":
    case "stale":
      return outcome(409, result.result, result.reason, { order });
    case "rejected":
      return outcome(422, "rejected", result.reason, { guard: result.guard, order });
    default:
      return assertNever(result);
  }
});
