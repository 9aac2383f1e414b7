import "server-only";
import { z } from "zod";
import { ORDER_EVENTS, ORDER_STATES, SOURCES } from "@/lib/orders/machine";
import { lineProgress } from "@/lib/orders/progress";
import { TAKE_BACK_STATUSES } from "@/lib/orders/take-back";
import { lineLedgerRow, lineLedgerSql } from "@/lib/orders/rows";
import { REFUND_STATUSES } from "@/lib/refunds/model";
import type { CaseFacts } from "../facts";
import { CASE_STATUSES } from "../model";

// How a case is read for the console: the select list over `order_exceptions e` (joined to its
// tenant `t` and its order `o`, see CASE_JOINS) beside the schema that decodes it. Every part is
// an index range on the case's own order or payment: the order row by id, the explaining
// transition by (tenant, order, event), the lines and grants by order, the refunds by case and by
// payment — so a page of cases costs a few probes per row, whatever the table sizes.

/** ISO 8601 in UTC with milliseconds, as JSON would have it (null stays null). */
export const ISO = (expr: string): string => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const CASE_JOINS = `JOIN tenants t ON t.id = e.tenant_id LEFT JOIN orders o ON o.id = e.order_id`;

// The transition each money kind is explained by (lib/cases/facts.ts CaseRelated).
const RELATED_EVENT = `CASE e.kind WHEN 'payment-after-close' THEN 'close' WHEN 'payment-after-refund' THEN 'confirm-refund'
  WHEN 'second-payment' THEN 'pay' WHEN 'amount-mismatch' THEN 'pay' END`;

// The take_backs row of a take-back-failed case, by its primary key out of the case's bizKey
// ('take-back:' || id, lib/cases/model.ts takeBackCaseKey); the pattern keeps a bizKey that is not
// one (a hand-made row) from failing the cast, and so the whole page. Its calls so far are the row's
// attempts plus those each retry started afresh from (the `take-back.retried` facts' attemptsBefore,
// through the (action, target) audit index); its last error is the latest failure's, kept on the row
// until the next attempt replaces it — the case's own detail is the first failure, frozen.
const TAKE_BACK_SQL = `CASE WHEN e.kind = 'take-back-failed' AND e.biz_key ~ '^take-back:[0-9]{1,18}$' THEN
    (SELECT json_build_object('id', b.id, 'status', b.status, 'endpoint', CASE WHEN b.units < 0 THEN 'revoke' ELSE 'grant' END, 'endpointSet',
              s.signing_secret IS NOT NULL AND CASE WHEN b.units < 0 THEN s.revoke_endpoint_url ELSE s.grant_endpoint_url END IS NOT NULL,
              'attempts', b.attempts + (SELECT coalesce(sum((r.detail ->> 'attemptsBefore')::int), 0)::int FROM audit_events r
                                         WHERE r.action = 'take-back.retried' AND r.target = 'take-back:' || b.id),
              'lastError', b.last_error)
     FROM take_backs b LEFT JOIN tenant_settings s ON s.tenant_id = b.tenant_id
     WHERE b.id = substr(e.biz_key, 11)::bigint AND b.tenant_id = e.tenant_id) END`;

// Whether a refund's request left for the channel is read from the facts that say so, never assumed
// from its status (issue 29): the newest `refund.requested` outbox message of the refund `r` (a
// resend writes another), through the outbox's (tenant, order, id) index — only while the refund is
// still `requested`, when it is the question.
const refundMessageOf = (orderMatch: string) => `(SELECT json_build_object('id', m.id, 'status', m.status, 'attempts', m.attempts, 'lastError', m.last_error)
       FROM outbox_messages m
       WHERE m.tenant_id = r.tenant_id AND ${orderMatch} AND m.topic = 'refund.requested' AND m.payload ->> 'refundId' = r.refund_id
       ORDER BY m.id DESC LIMIT 1)`;
const REFUND_MESSAGE_SQL = `CASE WHEN r.status = 'requested' THEN
    CASE WHEN r.order_id IS NULL THEN ${refundMessageOf("m.order_id IS NULL")} ELSE ${refundMessageOf("m.order_id = r.order_id")} END END`;
// A `sent` refund a person marked so (the channel was told another way): the audit fact says who and why.
const REFUND_TOLD_SQL = `CASE WHEN r.status = 'sent' THEN
    (SELECT json_build_object('actor', a.actor, 'reason', a.detail ->> 'reason', 'at', ${ISO("a.created_at")})
     FROM audit_events a
     WHERE a.action = 'refund.sent' AND a.target = 'refund:' || r.refund_id AND a.tenant_id = r.tenant_id AND a.detail ->> 'means' = 'other'
     ORDER BY a.created_at DESC LIMIT 1) END`;

/** One refund `r` of a case as JSON, with the facts of where it stands (refundRow decodes it). */
export const REFUND_JSON = `json_build_object('refundId', r.refund_id, 'amount', r.amount, 'status', r.status, 'channelRef', r.channel_ref,
    'requestedBy', r.requested_by, 'createdAt', ${ISO("r.created_at")}, 'updatedAt', ${ISO("r.updated_at")},
    'message', ${REFUND_MESSAGE_SQL}, 'told', ${REFUND_TOLD_SQL})`;

export const CASE_COLUMNS = `e.id, e.tenant_id AS "tenantId", e.order_id AS "orderId", e.kind, e.event, e.biz_key AS "bizKey", e.amount,
  coalesce(o.currency, t.currency) AS currency, e.detail, e.actor, e.status, e.owner,
  ${ISO("e.taken_at")} AS "takenAt", ${ISO("e.created_at")} AS "createdAt", ${ISO("e.sla_due_at")} AS "slaDueAt",
  floor(extract(epoch FROM now() - e.created_at))::int AS "ageSeconds",
  floor(extract(epoch FROM e.sla_due_at - now()))::int AS "dueInSeconds",
  e.resolution, e.resolution_ref AS "resolutionRef", e.resolved_reason AS "resolvedReason", ${ISO("e.resolved_at")} AS "resolvedAt",
  e.resolved_by AS "resolvedBy",
  CASE WHEN o.id IS NOT NULL THEN json_build_object('orderNo', o.order_no, 'state', o.state, 'amount', o.amount, 'currency', o.currency,
    'playerId', o.player_id) END AS "order",
  (SELECT json_build_object('event', x.event, 'bizKey', x.biz_key, 'source', x.source, 'actor', x.actor, 'at', ${ISO("x.created_at")})
     FROM order_transitions x
     WHERE x.tenant_id = e.tenant_id AND x.order_id = e.order_id AND x.event = ${RELATED_EVENT}
       AND (e.kind <> 'amount-mismatch' OR x.biz_key = e.biz_key)
     ORDER BY x.id LIMIT 1) AS related,
  CASE WHEN e.kind IN ('delivery-incomplete', 'delivery-failed') AND e.order_id IS NOT NULL
    THEN (SELECT json_agg(l) FROM (${lineLedgerSql("e.tenant_id", "e.order_id")}) l) END AS lines,
  (SELECT coalesce(json_agg(${REFUND_JSON} ORDER BY r.id), '[]') FROM payment_refunds r WHERE r.tenant_id = e.tenant_id AND r.case_id = e.id) AS refunds,
  CASE WHEN e.amount IS NULL OR e.biz_key = '' THEN 0 ELSE
    (SELECT coalesce(sum(r.amount), 0) FROM payment_refunds r
     WHERE r.tenant_id = e.tenant_id AND r.payment_txn = e.biz_key AND r.status <> 'failed') END::bigint AS "reservedOfPayment",
  ${TAKE_BACK_SQL} AS "takeBack",
  coalesce((SELECT s.webhook_url IS NOT NULL AND s.signing_secret IS NOT NULL FROM tenant_settings s WHERE s.tenant_id = e.tenant_id), false) AS "webhookSet"`;

/** Decodes REFUND_JSON. */
export const caseRefundRow = z.object({
  refundId: z.string(),
  amount: z.number(),
  status: z.enum(REFUND_STATUSES),
  channelRef: z.string().nullable(),
  requestedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  message: z
    .object({ id: z.number(), status: z.enum(["pending", "delivered", "dead"]), attempts: z.number(), lastError: z.string().nullable() })
    .nullable(),
  told: z.object({ actor: z.string(), reason: z.string().catch(""), at: z.string() }).nullable(),
});

const caseRow = z.object({
  id: z.number(),
  tenantId: z.string(),
  orderId: z.number().nullable(),
  kind: z.string(),
  event: z.string().nullable(),
  bizKey: z.string(),
  amount: z.number().nullable(),
  currency: z.string(),
  detail: z.record(z.string(), z.unknown()),
  actor: z.string(),
  status: z.enum(CASE_STATUSES),
  owner: z.string().nullable(),
  takenAt: z.string().nullable(),
  createdAt: z.string(),
  slaDueAt: z.string(),
  ageSeconds: z.number(),
  dueInSeconds: z.number(),
  resolution: z.string().nullable(),
  resolutionRef: z.string().nullable(),
  resolvedReason: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  order: z
    .object({ orderNo: z.string(), state: z.enum(ORDER_STATES), amount: z.number(), currency: z.string(), playerId: z.string() })
    .nullable(),
  related: z.object({ event: z.enum(ORDER_EVENTS), bizKey: z.string(), source: z.enum(SOURCES), actor: z.string(), at: z.string() }).nullable(),
  lines: z.array(lineLedgerRow).nullable(),
  refunds: z.array(caseRefundRow),
  reservedOfPayment: z.number(),
  takeBack: z
    .object({
      id: z.number(),
      status: z.enum(TAKE_BACK_STATUSES),
      endpoint: z.enum(["revoke", "grant"]),
      endpointSet: z.boolean(),
      attempts: z.number(),
      lastError: z.string().nullable(),
    })
    .nullable(),
  webhookSet: z.boolean(),
});

/** Decodes a row of CASE_COLUMNS into the facts the pure judges read. */
export const caseFactsRow: z.ZodType<CaseFacts, unknown> = caseRow.transform((r) => ({
  ...r,
  lines: r.lines?.map((l) => ({ ...lineProgress(l, l), kind: l.kind })) ?? null,
}));
