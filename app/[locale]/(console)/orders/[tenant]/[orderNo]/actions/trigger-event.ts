"use server";

import { z } from "zod";
import { refundNeedsApproval, requestRefundApproval } from "@/lib/approvals/refund-approvals";
import { defineAction } from "@/lib/auth/action";
import { canTrigger, rolesTriggering } from "@/lib/auth/permissions";
import { orderScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { consoleBizKey, needsChannelKey, reasonInput } from "@/lib/orders/console-event";
import { ORDER_EVENTS } from "@/lib/orders/machine";
import { transitionsSince } from "@/lib/orders/queries/order-detail";
import { transit } from "@/lib/orders/transit";
import type { TransitionRecord } from "@/lib/orders/types";
import type { Refusal } from "@/lib/problems";
import { because } from "@/lib/validation";

const input = z
  .object({
    tenant: z.string().min(1),
    orderNo: z.string().min(1),
    event: z.enum(ORDER_EVENTS),
    reason: reasonInput,
    /** Made when the form rendered: the same submission twice is one change. */
    idempotencyKey: z.uuid(),
    /** The version the page showed: anything newer is `stale`. */
    expectedVersion: z.coerce.number().int().nonnegative(),
    channelKey: z.string().trim().max(128).optional(),
    amount: z.coerce.number().int().positive().optional(),
  })
  .superRefine((v, ctx) => {
    if (needsChannelKey(v.event) && !v.channelKey) {
      ctx.addIssue({ code: "custom", path: ["channelKey"], ...because({ kind: "channel-key-required", event: v.event }) });
    }
    if (v.event === "pay" && v.amount === undefined) ctx.addIssue({ code: "custom", path: ["amount"], ...because({ kind: "amount-required" }) });
  });

export type TriggerEventOutcome =
  | { readonly result: "applied" | "duplicate"; readonly state: string; readonly version: number }
  | { readonly result: "approval-requested" | "approval-pending" }
  | { readonly result: "illegal" | "rejected"; readonly refusal: Refusal }
  | {
      readonly result: "stale";
      readonly refusal: Refusal;
      /** The version the form was rendered at, and the order's now. */
      readonly seenVersion: number;
      readonly version: number;
      readonly since: readonly TransitionRecord[];
    };

/** A console event: whitelisted for the role, in scope, with a reason; through transit(). */
export const triggerEvent = defineAction(
  { name: "orders.trigger-event", permission: "orders:event", input, scope: orderScope((v: z.output<typeof input>) => v) },
  async (v, { staff, actor, resource: order }): Promise<TriggerEventOutcome> => {
    if (!canTrigger(staff.role, v.event)) throw new AppError("forbidden", { kind: "event-not-for-role", event: v.event, roles: rolesTriggering(v.event) });
    // Above the tenant's approval amount a refund needs a second person: file the request instead.
    if (v.event === "request-refund" && (await refundNeedsApproval(order))) {
      const request = await requestRefundApproval({ tenantId: order.tenantId, orderId: order.id, requestedBy: actor, reason: v.reason, requestKey: v.idempotencyKey });
      return { result: request.result === "already-pending" ? "approval-pending" : "approval-requested" };
    }
    const result = await transit({
      orderId: order.id,
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
        throw new AppError("not-found", { kind: "order-not-found", orderNo: v.orderNo });
      case "applied":
      case "duplicate":
        return { result: result.result, state: result.order.state, version: result.order.version };
      case "illegal":
      case "rejected":
        return { result: result.result, refusal: result.refusal };
      case "stale":
        return {
          result: "stale",
          refusal: result.refusal,
          seenVersion: v.expectedVersion,
          version: result.order.version,
          since: await transitionsSince(order.tenantId, order.id, v.expectedVersion),
        };
    }
  },
);
