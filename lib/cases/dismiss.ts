import "server-only";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { changeCase, judgeClaim, type ClaimInput } from "./claim";
import { lockCase } from "./lock";
import type { CaseStatus } from "./model";

export interface DismissInput extends Omit<ClaimInput, "offer"> {
  readonly caseId: number;
  readonly reason: string;
}

export type DismissResult = { readonly result: "dismissed" } | { readonly result: "duplicate"; readonly status: CaseStatus };

/**
 * Closes a case with nothing done, and why. About money only a manager may (the permission table's
 * cases:dismiss-money); a case whose refund is with the channel cannot be dismissed under it. A
 * dismissed delivery failure also ends the coordinator's backoff: the next run tries again.
 */
export async function dismissCase(input: DismissInput): Promise<DismissResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<DismissResult> => {
      const locked = await lockCase(tx, input.caseId);
      const claim = judgeClaim(locked, { ...input, offer: "dismiss" });
      if (claim.kind === "duplicate") return { result: "duplicate", status: claim.facts.status };
      await changeCase(tx, claim.facts, {
        status: "dismissed",
        actor: input.actor,
        resolution: null,
        requestKey: input.requestKey,
        reason: input.reason,
        action: "case.dismissed",
      });
      return { result: "dismissed" };
    },
    { prisma: true },
  );
}
