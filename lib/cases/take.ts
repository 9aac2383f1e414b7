import "server-only";
import { audit } from "@/lib/audit/record";
import { can, type Role } from "@/lib/auth/permissions";
import { execute } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { lockCase } from "./lock";
import { isActive } from "./model";
import { personOf } from "./offers";

export interface TakeInput {
  readonly caseId: number;
  readonly actor: string;
  readonly role: Role;
  readonly reason?: string | null;
}

export type TakeResult = { readonly result: "taken" | "already-yours"; readonly owner: string };

/**
 * Takes a case: it becomes the caller's, in progress. A case someone else has is refused with who
 * has it ("already taken by X"), unless the caller may override; a closed one with who closed it.
 * Two takes at once queue on the case's row lock, and the second finds the first one's owner.
 */
export async function takeCase(input: TakeInput): Promise<TakeResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<TakeResult> => {
      const locked = await lockCase(tx, input.caseId);
      const c = locked.facts;
      if (!isActive(c.status)) throw new AppError("conflict", { kind: "case-closed", status: c.status, by: c.resolvedBy && personOf(c.resolvedBy) });
      if (c.owner === input.actor) return { result: "already-yours", owner: c.owner };
      if (c.owner !== null && !can(input.role, "cases:override")) throw new AppError("conflict", { kind: "case-taken", owner: personOf(c.owner) });

      await execute(tx.client, `UPDATE order_exceptions SET status = 'in-progress', owner = $2, taken_at = now() WHERE id = $1`, [c.id, input.actor]);
      await audit(
        {
          actor: input.actor,
          action: "case.taken",
          tenantId: c.tenantId,
          orderId: c.orderId,
          target: `case:${c.id}`,
          detail: { caseId: c.id, kind: c.kind, previousOwner: c.owner, ...(input.reason ? { reason: input.reason } : {}) },
        },
        tx.prisma,
      );
      return { result: "taken", owner: input.actor };
    },
    { prisma: true },
  );
}

export interface AssignInput {
  readonly caseId: number;
  readonly actor: string;
  /** The staff member's actor name ("staff:<email>"), already checked to work cases of the tenant. */
  readonly assignee: string;
  /** The owner the form showed (null: nobody): anything else now means someone moved first. */
  readonly expectedOwner: string | null;
  readonly reason: string;
}

/**
 * Hands a case to someone who works cases of its tenant. Refused when it has an owner the form did
 * not show (someone took or reassigned it meanwhile): the caller sees who has it now.
 */
export async function assignCase(input: AssignInput): Promise<TakeResult> {
  return transaction(
    async (tx: PrismaTransaction): Promise<TakeResult> => {
      const locked = await lockCase(tx, input.caseId);
      const c = locked.facts;
      if (!isActive(c.status)) throw new AppError("conflict", { kind: "case-closed", status: c.status, by: c.resolvedBy && personOf(c.resolvedBy) });
      if (c.owner === input.assignee) return { result: "already-yours", owner: c.owner };
      // Nobody's case may be handed on by anyone; someone's only by whoever saw that it was theirs.
      if (c.owner !== null && c.owner !== input.expectedOwner) throw new AppError("conflict", { kind: "case-taken", owner: personOf(c.owner) });

      await execute(tx.client, `UPDATE order_exceptions SET status = 'in-progress', owner = $2, taken_at = now() WHERE id = $1`, [c.id, input.assignee]);
      await audit(
        {
          actor: input.actor,
          action: "case.assigned",
          tenantId: c.tenantId,
          orderId: c.orderId,
          target: `case:${c.id}`,
          detail: { caseId: c.id, kind: c.kind, previousOwner: c.owner, owner: input.assignee, reason: input.reason },
        },
        tx.prisma,
      );
      return { result: "taken", owner: input.assignee };
    },
    { prisma: true },
  );
}
