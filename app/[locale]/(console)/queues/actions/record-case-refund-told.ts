"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { caseScope } from "@/lib/auth/scope";
import { actOnCaseRefund, type CaseRefundActionResult } from "@/lib/cases/refund-actions";
import { reasonInput } from "@/lib/orders/console-event";
import { caseId } from "./case-input";

const input = z.object({ caseId, refundId: z.string().trim().min(1).max(200), reason: reasonInput });

/**
 * Records that the channel was told of a case's refund another way (its merchant portal, a call),
 * with what was done: the refund is then with the channel, waiting for its answer.
 */
export const recordCaseRefundTold = defineAction(
  { name: "cases.refund-told", permission: "cases:work", input, scope: caseScope((v: z.output<typeof input>) => v.caseId) },
  async (v, { staff, actor, resource }): Promise<CaseRefundActionResult> =>
    actOnCaseRefund({ tenantId: resource.tenantId, caseId: resource.id, refundId: v.refundId, action: "record-told", actor, role: staff.role, reason: v.reason }),
);
