import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { getPrisma } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/retry";
import { maybeOne } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { english } from "@/lib/i18n/translator";
import type { ExceptionDraft } from "@/lib/orders/decide";
import { recordException } from "@/lib/orders/record-exception";
import { refundNeedsApprovalOf } from "@/lib/orders/refund-history";
import { transitIn, type TransitResult } from "@/lib/orders/transit";
import type { OrderSnapshot } from "@/lib/orders/types";
import type { Refusal } from "@/lib/problems";

// Four eyes on large refunds: a console request-refund above the tenant's approval amount becomes
// a pending approval; a manager other than the requester approves (through transit()) or rejects.

/** Whether a console refund of this order needs a manager's approval (above the tenant's amount). */
export async function refundNeedsApproval(order: Pick<OrderSnapshot, "tenantId" | "amount">): Promise<boolean> {
  const settings = await getPrisma().tenantSettings.findUnique({ where: { tenantId: order.tenantId }, select: { refundApprovalAmount: true } });
  return refundNeedsApprovalOf(order.amount, settings === null ? null : Number(settings.refundApprovalAmount));
}

export type RequestResult = { readonly result: "requested" | "duplicate" | "already-pending"; readonly id: number };

export async function requestRefundApproval(input: {
  tenantId: string;
  orderId: number;
  requestedBy: string;
  reason: string;
  requestKey: string;
}): Promise<RequestResult> {
  const prisma = getPrisma();
  const key = { tenantId_orderId_requestKey: { tenantId: input.tenantId, orderId: input.orderId, requestKey: input.requestKey } };
  const same = await prisma.refundApproval.findUnique({ where: key, select: { id: true } });
  if (same) return { result: "duplicate", id: Number(same.id) };
  const order = await prisma.order.findUniqueOrThrow({ where: { id: input.orderId }, select: { amount: true } });
  try {
    // The request and its audit fact together: neither without the other.
    const id = await transaction(
      async (tx) => {
        const created = await tx.prisma.refundApproval.create({ data: { ...input, amount: order.amount }, select: { id: true } });
        await audit(
          {
            actor: input.requestedBy,
            action: "approval.requested",
            tenantId: input.tenantId,
            orderId: input.orderId,
            target: `approval:${created.id}`,
            detail: { approvalId: Number(created.id), amount: Number(order.amount), reason: input.reason },
          },
          tx.prisma,
        );
        return Number(created.id);
      },
      { prisma: true },
    );
    return { result: "requested", id };
  } catch (error) {
    // The same form submitted twice at once: the twin's row is this request.
    const twin = await prisma.refundApproval.findUnique({ where: key, select: { id: true } });
    if (twin) return { result: "duplicate", id: Number(twin.id) };
    // At most one pending request per order (a partial unique index): someone asked first.
    if (!isUniqueViolation(error)) throw error;
    const pending = await prisma.refundApproval.findFirst({ where: { tenantId: input.tenantId, orderId: input.orderId, status: "pending" }, select: { id: true } });
    return { result: "already-pending", id: Number(pending?.id ?? 0) };
  }
}

export interface PendingApproval {
  readonly id: number;
  readonly tenantId: string;
  readonly orderNo: string;
  readonly amount: number;
  readonly currency: string;
  readonly state: string;
  readonly requestedBy: string;
  readonly reason: string;
  readonly createdAt: Date;
}

export async function listPendingApprovals(tenantIds: readonly string[]): Promise<PendingApproval[]> {
  const pending = await getPrisma().refundApproval.findMany({
    where: { tenantId: { in: [...tenantIds] }, status: "pending" },
    orderBy: { createdAt: "asc" },
    include: { order: { select: { orderNo: true, currency: true, state: true } } },
  });
  return pending.map((a) => ({
    id: Number(a.id),
    tenantId: a.tenantId,
    orderNo: a.order.orderNo,
    amount: Number(a.amount),
    currency: a.order.currency,
    state: a.order.state,
    requestedBy: a.requestedBy,
    reason: a.reason,
    createdAt: a.createdAt,
  }));
}

export type DecisionResult =
  | { readonly result: "approved"; readonly transit: "applied" | "duplicate" }
  | { readonly result: "rejected" }
  | { readonly result: "not-applied"; readonly refusal: Refusal };

const pendingRow = z.object({ tenantId: z.string(), orderId: z.number(), requestedBy: z.string(), status: z.string(), request: z.string() });

/**
 * Approve or reject a pending request, as one transaction: the request row is locked first, so of
 * an approve and a reject racing, exactly one decides and the other is told it was decided; an
 * approval applies request-refund through transit's own steps in the same transaction (bizKey
 * `approval:<id>`), so the request never reads approved while the order did not move, or the
 * reverse. The requester can never decide their own request (checked here, and by a CHECK
 * constraint in the database).
 */
export async function decideRefundApproval(input: { id: number; approve: boolean; decidedBy: string; reason: string }): Promise<DecisionResult> {
  let exception: ExceptionDraft | undefined;
  const outcome = await transaction(
    async (tx): Promise<DecisionResult> => {
      const approval = await maybeOne(
        tx.client,
        pendingRow,
        `SELECT tenant_id AS "tenantId", order_id AS "orderId", requested_by AS "requestedBy", status, reason AS request
         FROM refund_approvals WHERE id = $1 FOR UPDATE`,
        [input.id],
      );
      if (!approval) throw new AppError("not-found");
      if (approval.requestedBy === input.decidedBy) throw new AppError("forbidden", { kind: "own-refund-request" });
      if (approval.status !== "pending") throw new AppError("conflict", { kind: "approval-decided", status: approval.status });

      let decided: DecisionResult = { result: "rejected" };
      let decisionReason = input.reason;
      if (input.approve) {
        const applied = await transitIn(tx, {
          orderId: approval.orderId,
          event: "request-refund",
          bizKey: `approval:${input.id}`,
          actor: input.decidedBy,
          source: "console",
          reason: `approved (asked by ${approval.requestedBy}: ${approval.request}): ${input.reason}`,
        });
        exception = applied.exception;
        decided = approvalOutcome(applied.result);
        if (decided.result === "not-applied") decisionReason = `approved, but the refund could not be requested: ${english(decided.refusal)}`;
      }
      const status = decided.result === "approved" ? "approved" : "rejected";
      await tx.prisma.refundApproval.update({
        where: { id: input.id },
        data: { status, decidedBy: input.decidedBy, decisionReason, decidedAt: new Date() },
      });
      await audit(
        {
          actor: input.decidedBy,
          action: status === "approved" ? "approval.approved" : "approval.rejected",
          tenantId: approval.tenantId,
          orderId: approval.orderId,
          target: `approval:${input.id}`,
          detail: {
            approvalId: input.id,
            requestedBy: approval.requestedBy,
            reason: input.reason,
            ...(decided.result === "not-applied" ? { refusal: decided.refusal } : {}),
          },
        },
        tx.prisma,
      );
      return decided;
    },
    { prisma: true },
  );
  if (exception) await recordException(exception);
  return outcome;
}

function approvalOutcome(result: TransitResult): DecisionResult {
  switch (result.result) {
    case "applied":
    case "duplicate":
      return { result: "approved", transit: result.result };
    case "illegal":
    case "stale":
    case "rejected":
      return { result: "not-applied", refusal: result.refusal };
    case "not-found":
      throw new AppError("not-found");
  }
}
