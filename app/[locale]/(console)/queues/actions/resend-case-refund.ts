"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { caseScope } from "@/lib/auth/scope";
import { actOnCaseRefund, type CaseRefundActionResult } from "@/lib/cases/refund-actions";
import { caseId } from "./case-input";

const input = z.object({ caseId, refundId: z.string().trim().min(1).max(200) });

/** Sends a case's refund request to the channel again, once the product has a webhook to carry it. */
export const resendCaseRefund = defineAction(
  { name: "cases.refund-resend", permission: "cases:work", input, scope: caseScope((v: z.output<typeof input>) => v.caseId) },
  async (v, { staff, actor, resource }): Promise<CaseRefundActionResult> =>
    actOnCaseRefund({ tenantId: resource.tenantId, caseId: resource.id, refundId: v.refundId, action: "resend", actor, role: staff.role, reason: null }),
);
