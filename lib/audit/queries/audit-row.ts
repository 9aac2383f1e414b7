// One row of the audit trail as the explorer, the security log and the CSV see it: a fact of one of
// the four logs, told apart by `log`. Pure: decodes what log-streams.ts selects.
import { z } from "zod";
import { ORDER_EVENTS, ORDER_STATES, SOURCES, type OrderEvent, type OrderState, type Source } from "@/lib/orders/machine";
import { encodeCursor, LOG_RANK, type AuditCursor } from "./cursor";
import { kindOfAction, type ActionKind } from "./kinds";

interface RowBase {
  readonly id: number;
  /** ISO 8601 UTC with microseconds (the exact stored value). */
  readonly at: string;
  readonly cursor: string;
  readonly tenantId: string | null;
  /** The order the fact is about; null for facts about no order. */
  readonly orderId: number | null;
  /** Null also if the order row is gone (orders are never deleted; this is a guard, not a case). */
  readonly orderNo: string | null;
  readonly actor: string;
  readonly reason: string | null;
}

interface OrderFact extends RowBase {
  readonly tenantId: string;
  readonly orderId: number;
}

export interface TransitionRow extends OrderFact {
  readonly log: "transition";
  readonly kind: "transition";
  readonly event: OrderEvent;
  readonly from: OrderState;
  readonly to: OrderState;
  readonly source: Source;
  readonly bizKey: string;
}

/** A grants-ledger row: a delivery or compensation, or (negative quantity) a refund's reversal. */
export interface GrantRow extends OrderFact {
  readonly log: "grant";
  readonly kind: "grant";
  readonly sku: string;
  readonly quantity: number;
  readonly grantId: string;
  readonly source: string;
}

export interface NoteRow extends OrderFact {
  readonly log: "note";
  readonly kind: "note";
  readonly body: string;
  readonly correctsId: number | null;
}

/** An audit_events row: everything else a person or the system did. */
export interface ActionRow extends RowBase {
  readonly log: "action";
  /** Null for an action name this version does not know. */
  readonly kind: ActionKind | null;
  readonly action: string;
  readonly target: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly ip: string | null;
  /** The order's currency, for amounts in the detail (approvals). */
  readonly currency: string | null;
}

export type AuditRow = TransitionRow | GrantRow | NoteRow | ActionRow;

const common = {
  id: z.number(),
  at: z.string(),
  actor: z.string(),
  reason: z.string().nullable(),
  orderNo: z.string().nullable(),
  currency: z.string().nullable(),
};
const orderFact = { ...common, tenantId: z.string(), orderId: z.number() };

// One schema per log, told apart by the rank the SQL gives each (LOG_RANK).
export const auditRaw = z.discriminatedUnion("rank", [
  z.object({
    ...orderFact,
    rank: z.literal(LOG_RANK.transition),
    data: z.object({ event: z.enum(ORDER_EVENTS), from: z.enum(ORDER_STATES), to: z.enum(ORDER_STATES), source: z.enum(SOURCES), bizKey: z.string() }),
  }),
  z.object({
    ...orderFact,
    rank: z.literal(LOG_RANK.grant),
    data: z.object({ sku: z.string(), quantity: z.number(), grantId: z.string(), source: z.string() }),
  }),
  z.object({ ...orderFact, rank: z.literal(LOG_RANK.note), data: z.object({ body: z.string(), correctsId: z.number().nullable() }) }),
  z.object({
    ...common,
    tenantId: z.string().nullable(),
    orderId: z.number().nullable(),
    rank: z.literal(LOG_RANK.action),
    data: z.object({ action: z.string(), target: z.string().nullable(), detail: z.record(z.string(), z.unknown()).nullable(), ip: z.string().nullable() }),
  }),
]);
export type AuditRaw = z.output<typeof auditRaw>;

export function toRow(r: AuditRaw): AuditRow {
  const base = { id: r.id, at: r.at, actor: r.actor, reason: r.reason, orderNo: r.orderNo };
  switch (r.rank) {
    case LOG_RANK.transition:
      return { ...base, ...r.data, cursor: encodeCursor({ at: r.at, log: "transition", id: r.id }), log: "transition", kind: "transition", tenantId: r.tenantId, orderId: r.orderId };
    case LOG_RANK.grant:
      return { ...base, ...r.data, cursor: encodeCursor({ at: r.at, log: "grant", id: r.id }), log: "grant", kind: "grant", tenantId: r.tenantId, orderId: r.orderId };
    case LOG_RANK.note:
      return { ...base, ...r.data, cursor: encodeCursor({ at: r.at, log: "note", id: r.id }), log: "note", kind: "note", tenantId: r.tenantId, orderId: r.orderId };
    case LOG_RANK.action:
      return {
        ...base,
        cursor: encodeCursor({ at: r.at, log: "action", id: r.id }),
        log: "action",
        kind: kindOfAction(r.data.action),
        tenantId: r.tenantId,
        orderId: r.orderId,
        action: r.data.action,
        target: r.data.target,
        detail: r.data.detail ?? {},
        ip: r.data.ip,
        currency: r.currency,
      };
  }
}

export function positionOf(row: AuditRow): AuditCursor {
  return { at: row.at, log: row.log, id: row.id };
}
