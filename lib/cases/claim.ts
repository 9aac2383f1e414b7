import "server-only";
import { audit } from "@/lib/audit/record";
import { can, ROLES, type Role } from "@/lib/auth/permissions";
import { execute } from "@/lib/db/sql";
import type { PrismaTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import type { CaseFacts } from "./facts";
import type { LockedCase } from "./lock";
import { isActive, type CaseStatus, type ChosenResolution } from "./model";
import { allowedFor, legalOffers, personOf, type CaseOffer, type OfferKind } from "./offers";
import { pendingRefundOf, pendingRefundProblem } from "./refund-reach";

export interface ClaimInput {
  readonly actor: string;
  readonly role: Role;
  readonly offer: OfferKind;
  /** Made once per submitted form: the same submission again is a duplicate, never a second change. */
  readonly requestKey: string;
}

export type Claim = { readonly kind: "duplicate"; readonly facts: CaseFacts } | { readonly kind: "go"; readonly facts: CaseFacts; readonly offer: CaseOffer };

/**
 * Judges a resolution (or a dismissal) of a locked case, on the facts read under the lock: the same
 * submission again is a duplicate; a closed case, one someone else works, one whose refund is with
 * the channel, a role that may not, or a way out that is not possible now are refused (AppError:
 * the caller hears why, in its language) — and nothing changes.
 */
export function judgeClaim(locked: LockedCase, input: ClaimInput): Claim {
  const c = locked.facts;
  const same = locked.resolutionKey === input.requestKey;
  if (!isActive(c.status)) {
    if (same) return { kind: "duplicate", facts: c };
    throw new AppError("conflict", { kind: "case-closed", status: c.status, by: c.resolvedBy && personOf(c.resolvedBy) });
  }
  const refund = pendingRefundOf(c.refunds);
  if (refund !== null) {
    if (same) return { kind: "duplicate", facts: c };
    throw new AppError("conflict", pendingRefundProblem(refund, c.webhookSet));
  }
  if (c.owner !== null && c.owner !== input.actor && !can(input.role, "cases:override")) {
    throw new AppError("conflict", { kind: "case-taken", owner: personOf(c.owner) });
  }
  if (!allowedFor(c, input.offer, input.role)) {
    throw new AppError("forbidden", { kind: "dismiss-not-for-role", roles: ROLES.filter((r) => can(r, "cases:dismiss-money")) });
  }
  const offer = legalOffers(c).find((o) => o.kind === input.offer);
  if (!offer) {
    if (same) return { kind: "duplicate", facts: c };
    throw new AppError("conflict", { kind: "resolution-not-offered", resolution: input.offer });
  }
  return { kind: "go", facts: c, offer };
}

export interface CaseChange {
  readonly status: Exclude<CaseStatus, "open">;
  readonly actor: string;
  readonly resolution: ChosenResolution | null;
  readonly requestKey: string;
  readonly reason: string;
  /** What the resolution made (the honouring order's number). */
  readonly ref?: string;
  readonly action: "case.resolving" | "case.resolved" | "case.dismissed";
  readonly detail?: Record<string, unknown>;
}

/**
 * Writes a person's resolution, or dismissal, of a case and its one audit fact, in the caller's
 * transaction. Whoever resolves an unowned case takes it; the reason is the case's once it is
 * closed, and the audit fact's always.
 */
export async function changeCase(tx: PrismaTransaction, c: CaseFacts, change: CaseChange): Promise<void> {
  const closed = change.status !== "in-progress";
  await execute(
    tx.client,
    `UPDATE order_exceptions SET status = $2, owner = coalesce(owner, $3), taken_at = coalesce(taken_at, now()),
       resolution = $4, resolution_key = $5, resolution_ref = coalesce($6, resolution_ref),
       resolved_reason = CASE WHEN $7 THEN $8 END, resolved_at = CASE WHEN $7 THEN now() END, resolved_by = CASE WHEN $7 THEN $3 END
     WHERE id = $1`,
    [c.id, change.status, change.actor, change.resolution, change.requestKey, change.ref ?? null, closed, change.reason],
  );
  await audit(
    {
      actor: change.actor,
      action: change.action,
      tenantId: c.tenantId,
      orderId: c.orderId,
      target: `case:${c.id}`,
      detail: { caseId: c.id, kind: c.kind, resolution: change.resolution, reason: change.reason, ...change.detail },
    },
    tx.prisma,
  );
}
