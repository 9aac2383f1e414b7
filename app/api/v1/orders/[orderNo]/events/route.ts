import { NextResponse } from "next/server";
import { apiOrderLockRoute } from "@/lib/api/route";
import { outcome } from "@/lib/api/v1/respond";
import { eventBody } from "@/lib/api/v1/schemas";
import { assertNever, type OrderEvent, type Source } from "@/lib/orders/machine";
import { apiOrderViewOf, getApiOrder } from "@/lib/api/v1/api-order";
import { transitLocking } from "@/lib/orders/transit";

// Money facts reported by a payment channel are callbacks; everything else is a plain API call.
const CALLBACK_EVENTS: readonly OrderEvent[] = ["pay", "confirm-refund", "reject-refund"];

// Round trips of a call: transit()'s five (four for a duplicate), its lock step being the key's
// lookup, which locks the order the path names in the same statement (apiOrderLockRoute). The order
// in the answer is the one transit() committed, with the lines and transitions it read under the
// row lock; only a transition that wrote ledger reversals (confirm-refund) reads the order again.
export const POST = apiOrderLockRoute({ name: "v1.orders.events", input: eventBody }, async ({ lockOrder }) => {
  const { result, history } = await transitLocking(async (tx) => {
    const call = await lockOrder(tx);
    const source: Source = CALLBACK_EVENTS.includes(call.input.event) ? "callback" : "api";
    return { order: call.order, input: { actor: call.actor, source, ...call.input } };
  });
  // The lock step answers 404 for an order the tenant does not have, so transit never says not-found.
  if (result.result === "not-found") throw new Error("transitLocking answered not-found");
  const view = history ? apiOrderViewOf(result.order, history) : await getApiOrder(result.order.tenantId, result.order.orderNo);
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
