"use server";

import { z } from "zod";
import { decideRefundApproval } from "@/lib/approvals/refund-approvals";
import { defineAction } from "@/lib/auth/action";
import { approvalScope } from "@/lib/auth/scope";
import { reasonInput } from "@/lib/orders/console-event";

const input = z.object({ id: z.coerce.number().int().positive(), approve: z.boolean(), reason: reasonInput });

/** A manager approves or rejects someone else's refund request. */
export const decideApproval = defineAction(
  { name: "approvals.decide", permission: "refunds:approve", input, scope: approvalScope((v: z.output<typeof input>) => v.id) },
  // No revalidation: the page's view reads its list again on success (components/approvals/approvals-view.tsx).
  async (v, { actor, resource }) => decideRefundApproval({ id: resource.id, approve: v.approve, decidedBy: actor, reason: v.reason }),
);
