"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { caseScope } from "@/lib/auth/scope";
import { dismissCase as dismiss, type DismissResult } from "@/lib/cases/dismiss";
import { reasonInput } from "@/lib/orders/console-event";
import { caseId } from "./case-input";

const input = z.object({ caseId, reason: reasonInput, requestKey: z.uuid() });

/** Closes a case with nothing done, and why (a case about money: managers only). */
export const dismissCase = defineAction(
  { name: "cases.dismiss", permission: "cases:work", input, scope: caseScope((v: z.output<typeof input>) => v.caseId) },
  async (v, { staff, actor, resource }): Promise<DismissResult> =>
    dismiss({ caseId: resource.id, actor, role: staff.role, reason: v.reason, requestKey: v.requestKey }),
);
