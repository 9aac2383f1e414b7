import "server-only";
import { getPrisma, type PrismaTx } from "@/lib/db/prisma";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/** Staff and machine actions that are not order transitions (those live in order_transitions). */
export type AuditAction =
  | "sign-in.succeeded"
  | "sign-in.failed"
  | "sign-in.locked"
  | "access.denied"
  | "user.created"
  | "user.updated"
  | "user.disabled"
  | "user.enabled"
  | "user.password-reset"
  | "apikey.created"
  | "apikey.revoked"
  | "settings.updated"
  | "audit.exported";

export interface AuditInput {
  readonly actor: string;
  readonly action: AuditAction;
  readonly target?: string | null;
  readonly tenantId?: string | null;
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
      ip: input.ip ?? null,
      detail: (input.detail ?? {}) as object,
    },
  });
}
