import "server-only";
import { getPrisma, type PrismaTx } from "@/lib/db/prisma";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/** Staff and machine actions that are not order transitions (those live in order_transitions). */
export type AuditAction =
  | "sign-in.succeeded"
  | "sign-in.failed"
  | "sign-in.locked"
  | "sign-out"
  | "apikey.auth-failed"
  | "access.denied"
  | "user.created"
  | "user.updated"
  | "user.disabled"
  | "user.enabled"
  | "user.password-reset"
  | "apikey.created"
  | "apikey.revoked"
  | "settings.updated"
  | "audit.exported"
  | "audit.chain-broken"
  | "approval.requested"
  | "approval.approved"
  | "approval.rejected"
  | "bulk.previewed"
  | "bulk.started"
  | "bulk.finished"
  | "view.saved"
  | "view.renamed"
  | "view.deleted"
  | "orders.exported";

/**
 * Facts about cases, channel refunds, take-backs and stores (issues 13 and 16), each with the order's
 * id when there is one. The audit explorer's kinds (lib/audit/queries/kinds.ts) are a Record over
 * both unions: a name added here without a kind there does not compile.
 */
export type CaseAuditAction =
  | "case.taken"
  | "case.assigned"
  | "case.resolving"
  | "case.resolved"
  | "case.dismissed"
  | "case.reopened"
  | "case.honoured"
  | "refund.requested"
  | "refund.sent"
  /** A person sent a refund's request to the channel again, its first having never arrived (lib/refunds/resend-request.ts). */
  | "refund.resent"
  | "refund.confirmed"
  | "refund.failed"
  /** A store notification refused before it was stored (bad signature, another app): issue 16. */
  | "store.notification-refused"
  /** A store notification stored, with what it did (the order's timeline shows it). */
  | "store.notification"
  /** A run of the Google Play Voided Purchases poll: its window, what it read, and where its cursor moved. */
  | "store.voided-purchases-polled"
  /** A store's refund review (lib/stores/reviews): the answer queued with exactly what is sent, and what became of it. */
  | "refund-review.answered"
  | "refund-review.sent"
  | "refund-review.failed"
  | "refund-review.expired"
  /** The worker's call to the game for goods a refund took back (or a reversal gave back): it went through, or it could not. */
  | "take-back.done"
  | "take-back.failed"
  /** A person made a failed take-back owed to the game again, from its case (lib/cases/resolve-take-back.ts): who, and why. */
  | "take-back.retried"
  /** A person sent an outbox message to the tenant's webhook again (lib/deliveries/resend.ts): which, who, and why. */
  | "webhook.resent"
  /** A person sent a signed ping to a tenant's endpoint (lib/deliveries/test-send.ts): where, and what came back. */
  | "webhook.test-sent";

export interface AuditInput {
  readonly actor: string;
  readonly action: AuditAction | CaseAuditAction;
  readonly target?: string | null;
  readonly tenantId?: string | null;
  /** Facts about one order join its chain and its timeline. */
  readonly orderId?: number | null;
  readonly ip?: string | null;
  readonly detail?: Record<string, unknown>;
}

/**
 * Writes one audit fact. Pass the transaction's Prisma (`tx.prisma` of a `{ prisma: true }`
 * transaction) when the fact records a change made in that transaction: then a rolled-back change
 * leaves no audit row, and a committed one always has one.
 */
export async function audit(input: AuditInput, db: PrismaTx | PrismaClient = getPrisma()): Promise<void> {
  await db.auditEvent.create({
    data: {
      actor: input.actor,
      action: input.action,
      target: input.target ?? null,
      tenantId: input.tenantId ?? null,
      orderId: input.orderId ?? null,
      ip: input.ip ?? null,
      detail: (input.detail ?? {}) as object,
    },
  });
}
