"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { caseScope } from "@/lib/auth/scope";
import { CHOSEN_RESOLUTIONS } from "@/lib/cases/model";
import { resolveDeliveryCase, type DeliveryResolveResult } from "@/lib/cases/resolve-delivery";
import { resolveMoneyCase, type MoneyResolveResult } from "@/lib/cases/resolve-money";
import { resolveTakeBackCase, type TakeBackResolveResult } from "@/lib/cases/resolve-take-back";
import { assertNever } from "@/lib/orders/machine";
import { reasonInput } from "@/lib/orders/console-event";
import { caseId } from "./case-input";

const input = z.object({
  caseId,
  resolution: z.enum(CHOSEN_RESOLUTIONS),
  reason: reasonInput,
  /** Made when the form opened: submitting it twice is one resolution. */
  requestKey: z.uuid(),
});

export type ResolveCaseOutcome = MoneyResolveResult | DeliveryResolveResult | TakeBackResolveResult;

/**
 * Resolves a case with the way out the case offers the caller now (lib/cases/offers.ts): a refund
 * at the channel, honouring a late payment, accepting an overpayment, repairing or compensating a
 * delivery, retrying a failed take-back. Anything else is refused with why.
 */
export const resolveCase = defineAction(
  { name: "cases.resolve", permission: "cases:work", input, scope: caseScope((v: z.output<typeof input>) => v.caseId) },
  async (v, { staff, actor, resource }): Promise<ResolveCaseOutcome> => {
    const common = { caseId: resource.id, actor, role: staff.role, reason: v.reason, requestKey: v.requestKey };
    switch (v.resolution) {
      case "repair":
      case "compensate":
        return resolveDeliveryCase({ ...common, offer: v.resolution });
      case "retry-take-back":
        return resolveTakeBackCase({ ...common, offer: v.resolution });
      case "refund":
      case "honour":
      case "accept-and-refund-difference":
        return resolveMoneyCase({ ...common, offer: v.resolution });
      default:
        return assertNever(v.resolution);
    }
  },
);
