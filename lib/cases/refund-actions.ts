import "server-only";
import { can, type Role } from "@/lib/auth/permissions";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { AppError, invalidField } from "@/lib/errors";
import { lockRefund, markRefundToldIn, resendRefundRequestIn } from "@/lib/refunds/resend-request";
import { lockCase } from "./lock";
import { isActive } from "./model";
import { personOf } from "./offers";
import { refundControls, refundReach } from "./refund-reach";

export type CaseRefundAction = "resend" | "record-told";

export interface CaseRefundActionInput {
  readonly tenantId: string;
  readonly caseId: number;
  readonly refundId: string;
  readonly action: CaseRefundAction;
  readonly actor: string;
  readonly role: Role;
  /** Required for record-told (what was done, where); a resend's is optional. */
  readonly reason: string | null;
}

export type CaseRefundActionResult =
  | { readonly result: "resent"; readonly refundId: string; readonly messageId: number }
  | { readonly result: "told"; readonly refundId: string }
  /** Already so (the same click twice, or someone else first): the request is on its way or with the channel. */
  | { readonly result: "duplicate"; readonly refundId: string };

/**
 * What a person does about a case's refund that has not reached the channel (issue 29), judged by
 * the same rule that offers it (refund-reach.ts refundControls) on the facts read under the locks —
 * the refund's, then the case's — and written with its audit fact in that one transaction.
 */
export async function actOnCaseRefund(input: CaseRefundActionInput): Promise<CaseRefundActionResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<CaseRefundActionResult> => {
      const refund = await lockRefund(tx, input.tenantId, input.refundId);
      if (!refund || refund.caseId !== input.caseId) throw new AppError("not-found");
      const { facts: c } = await lockCase(tx, input.caseId);
      if (!isActive(c.status)) throw new AppError("conflict", { kind: "case-closed", status: c.status, by: c.resolvedBy && personOf(c.resolvedBy) });
      if (c.owner !== null && c.owner !== input.actor && !can(input.role, "cases:override")) throw new AppError("conflict", { kind: "case-taken", owner: personOf(c.owner) });
      const facts = c.refunds.find((r) => r.refundId === input.refundId);
      if (!facts) throw new AppError("not-found");

      const reach = refundReach(facts, c.webhookSet);
      const controls = refundControls(facts, c.webhookSet);
      const already = reach.kind === "with-channel" || reach.kind === "on-its-way";
      switch (input.action) {
        case "resend": {
          if (controls?.resend === "ready") {
            const messageId = await resendRefundRequestIn(tx, refund, { actor: input.actor, reason: input.reason ?? "", previousMessageId: facts.message?.id ?? null });
            return { result: "resent", refundId: refund.refundId, messageId };
          }
          if (controls?.resend === "needs-webhook") throw new AppError("conflict", { kind: "refund-needs-webhook", refundId: refund.refundId });
          if (already) return { result: "duplicate", refundId: refund.refundId };
          throw new AppError("conflict", { kind: "refund-not-actionable", refundId: refund.refundId });
        }
        case "record-told": {
          if (controls?.recordTold) {
            if (!input.reason) throw invalidField("reason", { kind: "required" });
            await markRefundToldIn(tx, refund, { actor: input.actor, reason: input.reason });
            return { result: "told", refundId: refund.refundId };
          }
          if (reach.kind === "with-channel") return { result: "duplicate", refundId: refund.refundId };
          throw new AppError("conflict", { kind: "refund-not-actionable", refundId: refund.refundId });
        }
      }
    },
    { prisma: true, retry: { label: `case refund ${input.action}` } },
  );
}
