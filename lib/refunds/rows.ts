// How payment_refunds rows are read with raw SQL: the select list beside the schema that decodes it.
import { z } from "zod";
import { REFUND_STATUSES } from "./model";

export const REFUND_COLUMNS = `r.id, r.tenant_id AS "tenantId", r.refund_id AS "refundId", r.order_id AS "orderId", r.case_id AS "caseId",
  r.channel, r.payment_txn AS "paymentTxn", r.payment_amount AS "paymentAmount", r.amount, r.currency, r.reason, r.status,
  r.requested_by AS "requestedBy", r.channel_ref AS "channelRef", r.settled_by AS "settledBy",
  r.created_at AS "createdAt", r.updated_at AS "updatedAt",
  (SELECT o.order_no FROM orders o WHERE o.id = r.order_id) AS "orderNo"`;

export const refundRow = z.object({
  id: z.number(),
  tenantId: z.string(),
  refundId: z.string(),
  orderId: z.number().nullable(),
  caseId: z.number().nullable(),
  channel: z.string(),
  paymentTxn: z.string(),
  paymentAmount: z.number(),
  amount: z.number(),
  currency: z.string(),
  reason: z.string(),
  status: z.enum(REFUND_STATUSES),
  requestedBy: z.string(),
  channelRef: z.string().nullable(),
  settledBy: z.string().nullable(),
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
  orderNo: z.string().nullable(),
});
export type RefundRecord = z.output<typeof refundRow>;
