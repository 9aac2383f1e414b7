import { NextResponse } from "next/server";
import { apiOrderRoute } from "@/lib/api/route";
import { outcome } from "@/lib/api/v1/respond";
import { eventBody } from "@/lib/api/v1/schemas";
import { assertNever, type OrderEvent, type Source } from "@/lib/orders/machine";
import { apiOrderViewOf, getApiOrder } from "@/lib/orders/queries/api-order";
import { transitWithHistory } from "@/lib/orders/transit";

// Money facts reported by a payment channel are callbacks; everything else is a plain API call.
const CALLBACK_EVENTS: readonly OrderEvent[] = ["pay", "confirm-refund", "reject-refund"];

// Round trips of a call: the key and the order in one statement, then transit()'s five (four for a
// duplicate). The order in the answer is the one transit() committed, with the lines and
// transitions it read under the row lock; only a transition that wrote ledger reversals
// (confirm-refund) reads the order again.
export const POST = apiOrderRoute({ name: "v1.orders.events", input: eventBody }, async ({ caller, actor, input, order }) => {
  const source: Source = CALLBACK_EVENTS.includes(input.event) ? "callback" : "api";
  const { result, history } = await transitWithHistory({ orderId: order.id, actor, source, ...input });
  // Orders are never deleted: not-found after the lookup found it would be a bug.
  if (result.result === "not-found") throw new Error(`order ${order.id} vanished`);
  const view = history ? apiOrderViewOf(result.order, history) : await getApiOrder(caller.tenantId, order.orderNo);
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
