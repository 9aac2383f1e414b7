"use server";

import { z } from "zod";
import { decideRefundApproval } from "@/lib/approvals/refund-approvals";
import { defineAction } from "@/lib/auth/action";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";

const input = z.object({
  id: z.coerce.number().int().positive(),
  approve: z.boolean(),
  reason: z.string().trim().min(MIN_REASON_LENGTH, `Give a reason of at least ${MIN_REASON_LENGTH} characters.`).max(500),
});

/** A manager approves or rejects someone else's refund request. */
export const decideApproval = defineAction({ name: "approvals.decide", permission: "refunds:approve", input }, async (v, { staff, actor }) => {
  // No revalidation here: the decided card stays on screen with its outcome until the next visit.
  return decideRefundApproval({ id: v.id, approve: v.approve, decidedBy: actor, reason: v.reason, tenantIds: staff.tenantIds });
});
