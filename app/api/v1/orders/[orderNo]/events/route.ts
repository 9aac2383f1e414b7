import { NextResponse } from "next/server";
import { apiRoute, pathOrder } from "@/lib/api/route";
import { outcome } from "@/lib/api/v1/respond";
import { eventBody } from "@/lib/api/v1/schemas";
import { assertNever, type OrderEvent, type Source } from "@/lib/orders/machine";
import { getApiOrder } from "@/lib/orders/queries/api-order";
import { transit } from "@/lib/orders/transit";

// Money facts reported by a payment channel are callbacks; everything else is a plain API call.
const CALLBACK_EVENTS: readonly OrderEvent[] = ["pay", "confirm-refund", "reject-refund"];

export const POST = apiRoute({ name: "v1.orders.events", input: eventBody }, async ({ caller, actor, input, params }) => {
  const order = await pathOrder(caller, params);
  const source: Source = CALLBACK_EVENTS.includes(input.event) ? "callback" : "api";
  const result = await transit({ orderId: order.id, actor, source, ...input });
  // Orders are never deleted: not-found after pathOrder() found it would be a bug.
  if (result.result === "not-found") throw new Error(`order ${order.id} vanished`);
  const view = await getApiOrder(caller.tenantId, order.orderNo);
  switch (result.result) {
    case "applied":
    case "duplicate":
      return NextResponse.json({ result: result.result, order: view });
    case "illegal":
    case "stale":
      return outcome(409, result.result, result.refusal, { order: view });
    case "rejected":
      return outcome(422, "rejected", result.refusal, { guard: result.guard, order: view });
    default:
      return assertNever(result);
  }
});
