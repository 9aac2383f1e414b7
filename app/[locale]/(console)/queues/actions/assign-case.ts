"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { caseScope } from "@/lib/auth/scope";
import { actorOf } from "@/lib/auth/staff";
import { findAssignee } from "@/lib/cases/queries/assignees";
import { assignCase as assign, type TakeResult } from "@/lib/cases/take";
import { AppError } from "@/lib/errors";
import { reasonInput } from "@/lib/orders/console-event";
import { caseId } from "./case-input";

const input = z.object({
  caseId,
  assignee: z.email(),
  /** The owner the form showed ("" for nobody): someone else's move since then is refused. */
  expectedOwner: z.string().max(320).default(""),
  reason: reasonInput,
});

/** Hands a case to a staff member who works cases of its product. */
export const assignCase = defineAction(
  { name: "cases.assign", permission: "cases:work", input, scope: caseScope((v: z.output<typeof input>) => v.caseId) },
  async (v, { actor, resource }): Promise<TakeResult> => {
    const assignee = await findAssignee(resource.tenantId, v.assignee);
    if (!assignee) throw new AppError("conflict", { kind: "assignee-not-eligible", email: v.assignee });
    return assign({ caseId: resource.id, actor, assignee: actorOf(assignee), expectedOwner: v.expectedOwner || null, reason: v.reason });
  },
);
