import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { outcome } from "@/lib/api/v1/respond";
import { refundEventBody, type RefundView } from "@/lib/api/v1/schemas";
import { AppError } from "@/lib/errors";
import { assertNever } from "@/lib/orders/machine";
import { applyRefundEvent } from "@/lib/cases/refund-event";
import type { RefundRecord } from "@/lib/refunds/rows";

// A payment channel answers a refund we asked it for (the refund.requested webhook): confirm or
// fail, by the rules of order events — idempotent by bizKey, 409 when the refund is already settled
// otherwise. The refund id is looked up within the key's tenant only.

function view(r: RefundRecord): RefundView {
  return {
    refundId: r.refundId,
    status: r.status,
    amount: r.amount,
    currency: r.currency,
    channel: r.channel,
    paymentTxn: r.paymentTxn,
    orderNo: r.orderNo,
    channelRef: r.channelRef,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const POST = apiRoute({ name: "v1.refunds.events", input: refundEventBody }, async ({ caller, actor, input, params }) => {
  const refundId = String(params.refundId);
  const result = await applyRefundEvent({ tenantId: caller.tenantId, refundId, actor, ...input });
  switch (result.result) {
    case "not-found":
      throw new AppError("not-found", { kind: "refund-not-found", refundId });
    case "applied":
    case "duplicate":
      return NextResponse.json({ result: result.result, refund: view(result.refund) });
    case "illegal":
      return outcome(409, "illegal", result.refusal, { refund: view(result.refund) });
    default:
      return assertNever(result);
  }
});
