"use server";

import { z } from "zod";
import { refundNeedsApproval, requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { defineAction } from "@/lib/auth/action";
import { canTrigger } from "@/lib/auth/permissions";
import { requireTenantScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { CHANNEL_KEY_EVENTS, consoleBizKey, MIN_REASON_LENGTH } from "@/lib/orders/console-event";
import { ORDER_EVENTS } from "@/lib/orders/machine";
import { findOrderId } from "@/lib/orders/queries/api-order";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";
import { transit } from "@/lib/orders/transit";
import type { TransitionRecord } from "@/lib/orders/types";

const input = z
  .object({
    tenant: z.string().min(1),
    orderNo: z.string().min(1),
    event: z.enum(ORDER_EVENTS),
    reason: z.string().trim().min(MIN_REASON_LENGTH, `Give a reason of at least ${MIN_REASON_LENGTH} characters.`).max(500),
    /** Made when the form rendered: the same submission twice is one change. */
    idempotencyKey: z.uuid(),
    /** The version the page showed: anything newer is `stale`. */
    expectedVersion: z.coerce.number().int().nonnegative(),
    channelKey: z.string().trim().max(128).optional(),
    amount: z.coerce.number().int().positive().optional(),
  })
  .superRefine((v, ctx) => {
    const what = CHANNEL_KEY_EVENTS[v.event];
    if (what && !v.channelKey) ctx.addIssue({ code: "custom", path: ["channelKey"], message: `Enter ${what}.` });
    if (v.event === "pay" && v.amount === undefined) ctx.addIssue({ code: "custom", path: ["amount"], message: "Enter the amount paid." });
  });

export type TriggerEventOutcome =
  | { readonly result: "applied" | "duplicate"; readonly state: string; readonly version: number }
  | { readonly result: "approval-requested" | "approval-pending" }
  | { readonly result: "illegal" | "rejected"; readonly reason: string }
  | {
      readonly result: "stale";
      readonly reason: string;
      /** The version the form was rendered at, and the order's now. */
      readonly seenVersion: number;
      readonly version: number;
      readonly since: readonly TransitionRecord[];
    };

/** A console event: whitelisted for the role, in scope, with a reason; through transit(). */
export const triggerEvent = defineAction({ name: "orders.trigger-event", permission: "orders:event", input }, async (v, { staff, actor }) => {
  await requireTenantScope(staff, v.tenant, `order:${v.tenant}/${v.orderNo}`);
  if (!canTrigger(staff.role, v.event)) throw new AppError("forbidden", `Your role may not trigger ${v.event} from the console.`);
  const orderId = await findOrderId(v.tenant, v.orderNo);
  if (orderId === null) throw new AppError("not-found", `No order ${v.orderNo}.`);

  // Above the tenant's approval amount a refund needs a second person: file the request instead.
  if (v.event === "request-refund" && (await refundNeedsApproval(orderId))) {
    const request = await requestRefundApproval({ tenantId: v.tenant, orderId, requestedBy: actor, reason: v.reason, requestKey: v.idempotencyKey });
    return { result: request.result === "already-pending" ? "approval-pending" : "approval-requested" } satisfies TriggerEventOutcome;
  }

  const result = await transit({
    orderId,
    event: v.event,
    bizKey: consoleBizKey(v.event, v.idempotencyKey, v.channelKey),
    actor,
    source: "console",
    reason: v.reason,
    expectedVersion: v.expectedVersion,
    ...(v.amount !== undefined ? { amount: v.amount } : {}),
  });

  switch (result.result) {
    case "not-found":
      throw new AppError("not-found", `No order ${v.orderNo}.`);
    case "applied":
    case "duplicate":
      return { result: result.result, state: result.order.state, version: result.order.version } satisfies TriggerEventOutcome;
    case "illegal":
    case "rejected":
      return { result: result.result, reason: result.reason } satisfies TriggerEventOutcome;
    case "stale": {
      // Each applied transition bumps the version once: the newest (now − expected) rows are what changed.
      const detail = await getOrderDetail(v.tenant, v.orderNo);
      const since = detail ? detail.transitions.slice(0, Math.max(0, result.order.version - v.expectedVersion)) : [];
      return {
        result: "stale",
        reason: result.reason,
        seenVersion: v.expectedVersion,
        version: result.order.version,
        since,
      } satisfies TriggerEventOutcome;
    }
  }
});
