"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { caseScope } from "@/lib/auth/scope";
import { takeCase as take, type TakeResult } from "@/lib/cases/take";
import { MAX_REASON_LENGTH } from "@/lib/orders/console-event";
import { caseId } from "./case-input";

const input = z.object({
  caseId,
  /** Taking is one click; a word on why is welcome but not required (the owner is the fact). */
  reason: z.string().trim().max(MAX_REASON_LENGTH).optional(),
});

/** Takes a case: it becomes the caller's. Someone else's case is refused with who has it. */
export const takeCase = defineAction(
  { name: "cases.take", permission: "cases:work", input, scope: caseScope((v: z.output<typeof input>) => v.caseId) },
  async (v, { staff, actor, resource }): Promise<TakeResult> => take({ caseId: resource.id, actor, role: staff.role, ...(v.reason ? { reason: v.reason } : {}) }),
);
