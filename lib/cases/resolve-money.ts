import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { one } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { transitIn } from "@/lib/orders/transit";
import { requestRefundIn } from "@/lib/refunds/request-refund";
import { changeCase, judgeClaim, type ClaimInput } from "./claim";
import type { CaseFacts } from "./facts";
import { lockCase } from "./lock";
import { channelOf, type CaseStatus } from "./model";
import type { CaseOffer } from "./offers";

export type MoneyResolution = "refund" | "accept-and-refund-difference" | "honour";

export interface MoneyResolveInput extends ClaimInput {
  readonly caseId: number;
  readonly offer: MoneyResolution;
  readonly reason: string;
}

export type MoneyResolveResult =
  | { readonly result: "duplicate"; readonly status: CaseStatus }
  /** A refund is with the channel; its confirmation resolves the case. */
  | {
      readonly result: "refund-requested";
      readonly refundId: string;
      readonly amount: number;
      readonly currency: string;
      /** Whether a webhook can carry the request: without one it is recorded but not sent (lib/cases/refund-reach.ts). */
      readonly webhookSet: boolean;
    }
  | { readonly result: "honoured"; readonly orderNo: string };

/** The refund id a submission asks for: the same form sent twice asks for the same refund. */
export function refundIdFor(requestKey: string): string {
  return `rf-${requestKey}`;
}

/** The order that honours a late payment: one per case, so honouring twice finds the same order. */
export function honourOrderNo(orderNo: string, caseId: number): string {
  return `${orderNo}-H${caseId}`;
}

/**
 * The money resolutions, each one transaction under the case's lock, through the domain: a refund at
 * the channel (lib/refunds), an overpayment accepted (transit() pay for the order's price) with the
 * difference refunded, or a late payment honoured (a new order for the same player and lines,
 * paid by that payment through transit()). Each with its audit facts; all or nothing.
 */
export async function resolveMoneyCase(input: MoneyResolveInput): Promise<MoneyResolveResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<MoneyResolveResult> => {
      const locked = await lockCase(tx, input.caseId);
      const claim = judgeClaim(locked, input);
      if (claim.kind === "duplicate") return { result: "duplicate", status: claim.facts.status };
      const { facts, offer } = claim;
      switch (offer.kind) {
        case "refund":
          return refund(tx, facts, offer, input, "refund");
        case "accept-and-refund-difference":
          await acceptPayment(tx, facts, input);
          return refund(tx, facts, offer, input, "accept-and-refund-difference");
        case "honour":
          return honour(tx, facts, input);
        default:
          throw new AppError("conflict", { kind: "resolution-not-offered", resolution: offer.kind });
      }
    },
    { prisma: true, retry: { label: `case ${input.offer}` } },
  );
}

async function refund(
  tx: PrismaTransaction,
  c: CaseFacts,
  offer: Extract<CaseOffer, { amount: number }>,
  input: MoneyResolveInput,
  resolution: "refund" | "accept-and-refund-difference",
): Promise<MoneyResolveResult> {
  const refundId = refundIdFor(input.requestKey);
  const requested = await requestRefundIn(tx, {
    tenantId: c.tenantId,
    refundId,
    orderId: c.orderId,
    caseId: c.id,
    channel: channelOf(c.actor, c.bizKey),
    paymentTxn: c.bizKey,
    paymentAmount: c.amount!,
    amount: offer.amount,
    currency: c.currency,
    reason: input.reason,
    requestedBy: input.actor,
  });
  if (requested.result === "refused") throw new AppError("conflict", requested.refusal);
  await changeCase(tx, c, {
    status: "in-progress",
    actor: input.actor,
    resolution,
    requestKey: input.requestKey,
    reason: input.reason,
    action: "case.resolving",
    detail: { refundId, amount: offer.amount, currency: c.currency },
  });
  return { result: "refund-requested", refundId, amount: offer.amount, currency: c.currency, webhookSet: c.webhookSet };
}

/** The overpaid order takes its own price from this transaction (the channel's id as bizKey). */
async function acceptPayment(tx: PrismaTransaction, c: CaseFacts, input: MoneyResolveInput): Promise<void> {
  const { result } = await transitIn(tx, {
    orderId: c.orderId!,
    event: "pay",
    bizKey: c.bizKey,
    amount: c.order!.amount,
    expectedState: "created",
    actor: input.actor,
    source: "console",
    reason: input.reason,
  });
  if (result.result === "applied" || result.result === "duplicate") return;
  throw new AppError("conflict", "refusal" in result ? result.refusal : { kind: "resolution-not-offered", resolution: input.offer });
}

const newOrderRow = z.object({ id: z.number() });

async function honour(tx: PrismaTransaction, c: CaseFacts, input: MoneyResolveInput): Promise<MoneyResolveResult> {
  const from = c.order!;
  const orderNo = honourOrderNo(from.orderNo, c.id);
  // The same player, lines, price and currency as the order that closed before the money came.
  const created = await one(
    tx.client,
    newOrderRow,
    `WITH o AS (
       INSERT INTO orders (tenant_id, order_no, player_id, amount, currency, state)
       SELECT tenant_id, $2, player_id, amount, currency, 'created' FROM orders WHERE id = $1
       RETURNING id, tenant_id
     ), l AS (
       INSERT INTO order_lines (tenant_id, order_id, sku, kind, quantity)
       SELECT o.tenant_id, o.id, x.sku, x.kind, x.quantity FROM o JOIN order_lines x ON x.tenant_id = o.tenant_id AND x.order_id = $1
     )
     SELECT id FROM o`,
    [c.orderId, orderNo],
  );
  const paid = await transitIn(tx, {
    orderId: created.id,
    event: "pay",
    bizKey: c.bizKey,
    amount: c.amount!,
    expectedState: "created",
    actor: input.actor,
    source: "console",
    reason: input.reason,
  });
  if (paid.result.result !== "applied") throw new Error(`honouring case ${c.id}: pay on the new order ${orderNo} was ${paid.result.result}`);

  await changeCase(tx, c, {
    status: "resolved",
    actor: input.actor,
    resolution: "honour",
    requestKey: input.requestKey,
    reason: input.reason,
    ref: orderNo,
    action: "case.resolved",
    detail: { orderNo, paymentTxn: c.bizKey, amount: c.amount, currency: c.currency },
  });
  // The other way of the link: the new order's own history says which payment and case it came from.
  await audit(
    {
      actor: input.actor,
      action: "case.honoured",
      tenantId: c.tenantId,
      orderId: created.id,
      target: `case:${c.id}`,
      detail: { caseId: c.id, kind: c.kind, fromOrderNo: from.orderNo, paymentTxn: c.bizKey, amount: c.amount, currency: c.currency, reason: input.reason },
    },
    tx.prisma,
  );
  return { result: "honoured", orderNo };
}
