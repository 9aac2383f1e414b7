import "server-only";
import { audit } from "@/lib/audit/record";
import { getPrisma } from "@/lib/db/prisma";
import { AppError } from "@/lib/errors";
import { findOrder } from "@/lib/orders/queries/find-order";
import type { OrderSnapshot } from "@/lib/orders/types";
import type { Problem } from "@/lib/problems";
import { actorOf, type Staff } from "./staff";

// Tenant scope, declared once per entry point. Every action, route and page names the resource the
// caller wants (an order by tenant and number, a tenant, a staff account, …) as a scope rule; the
// builder (defineAction, staffRoute, the page helper) resolves it before the body runs and hands the
// body the resolved resource. Outside the caller's scope answers exactly like missing (404), so ids
// cannot be probed across tenants, and the attempt is audited. Nothing here is checked by hand at
// a call site.

export type Resolution<R> =
  | { readonly ok: true; readonly resource: R }
  /** `denied` (the audit reason) is set when the resource exists but is outside the caller's scope. */
  | { readonly ok: false; readonly error: AppError; readonly denied?: string };

export interface ScopeRule<I, R> {
  /** Names the rule for tests and logs: "order", "tenant", "staff-user", … */
  readonly kind: string;
  /** How the audit trail names what was asked for: "order:xiaoxiao/XX123". */
  target(input: I): string;
  /** The tenant an out-of-scope attempt is audited under, when there is one. */
  tenantOf?(input: I): string | null;
  resolve(input: I, staff: Staff): Promise<Resolution<R>>;
}

export function inScope(staff: Pick<Staff, "tenantIds">, tenantId: string): boolean {
  return staff.tenantIds.includes(tenantId);
}

// Also for the rules that live beside their resource (lib/views/saved-view-scope.ts).
export const found = <R>(resource: R): Resolution<R> => ({ ok: true, resource });
export const missing = (problem?: Problem): Resolution<never> => ({ ok: false, error: new AppError("not-found", problem) });
export const outOfScope = (reason: string, problem?: Problem): Resolution<never> => ({ ok: false, error: new AppError("not-found", problem), denied: reason });

/** Actions on no particular resource (the caller's own profile; lists over the caller's scope). */
export const noResource: ScopeRule<unknown, null> = {
  kind: "none",
  target: () => "",
  resolve: async () => found(null),
};

/**
 * An order named by tenant and number, admitted by its tenant alone: for a read model that reads the
 * order itself, in its own snapshot (lib/read/order-page.ts), and answers not found when it is not
 * there. Refused, audited and worded exactly as orderScope.
 */
export function orderTenantScope<I>(pick: (input: I) => { readonly tenant: string; readonly orderNo: string }): ScopeRule<I, { readonly tenantId: string; readonly orderNo: string }> {
  return {
    kind: "order",
    target: (input) => `order:${pick(input).tenant}/${pick(input).orderNo}`,
    tenantOf: (input) => pick(input).tenant,
    async resolve(input, staff) {
      const { tenant, orderNo } = pick(input);
      if (!inScope(staff, tenant)) return outOfScope("tenant out of scope", { kind: "order-not-found", orderNo });
      return found({ tenantId: tenant, orderNo });
    },
  };
}

/** One order of a tenant in the caller's scope. */
export function orderScope<I>(pick: (input: I) => { readonly tenant: string; readonly orderNo: string }): ScopeRule<I, OrderSnapshot> {
  const admit = orderTenantScope(pick);
  return {
    ...admit,
    async resolve(input, staff) {
      const admitted = await admit.resolve(input, staff);
      if (!admitted.ok) return admitted;
      const { tenantId, orderNo } = admitted.resource;
      const order = await findOrder(tenantId, orderNo);
      return order ? found(order) : missing({ kind: "order-not-found", orderNo });
    },
  };
}

/** A tenant in the caller's scope (settings, keys, bulk batches are made per tenant). */
export function tenantScope<I>(pick: (input: I) => string): ScopeRule<I, { readonly tenantId: string }> {
  return {
    kind: "tenant",
    target: (input) => `tenant:${pick(input)}`,
    tenantOf: pick,
    async resolve(input, staff) {
      const tenantId = pick(input);
      if (!inScope(staff, tenantId)) return outOfScope("tenant out of scope");
      return found({ tenantId });
    },
  };
}

/** Like tenantScope, for an optional tenant filter: none means "all of the caller's tenants". */
export function optionalTenantScope<I>(pick: (input: I) => string | undefined): ScopeRule<I, { readonly tenantId: string | null }> {
  return {
    kind: "optional-tenant",
    target: (input) => `tenant:${pick(input) ?? "*"}`,
    tenantOf: (input) => pick(input) ?? null,
    async resolve(input, staff) {
      const tenantId = pick(input);
      if (tenantId !== undefined && !inScope(staff, tenantId)) return outOfScope("tenant out of scope");
      return found({ tenantId: tenantId ?? null });
    },
  };
}

/**
 * The tenants a caller hands out (a new staff member's scope): all must be within the caller's
 * own. Not a lookup, a grant of access, so going beyond one's scope is forbidden rather than 404.
 */
export function grantedTenantsScope<I>(pick: (input: I) => readonly string[]): ScopeRule<I, { readonly tenantIds: readonly string[] }> {
  return {
    kind: "granted-tenants",
    target: (input) => `tenants:${pick(input).join(",")}`,
    async resolve(input, staff) {
      const tenantIds = pick(input);
      const beyond = tenantIds.filter((t) => !inScope(staff, t));
      if (beyond.length > 0) {
        return { ok: false, error: new AppError("forbidden", { kind: "tenants-beyond-scope", tenants: beyond }), denied: "tenants beyond own scope" };
      }
      return found({ tenantIds });
    },
  };
}

/** A staff account the caller may administer: one whose every tenant is within the caller's scope. */
export function staffUserScope<I>(pick: (input: I) => number): ScopeRule<I, { readonly id: number; readonly email: string; readonly tenantIds: readonly string[] }> {
  return {
    kind: "staff-user",
    target: (input) => `staff-id:${pick(input)}`,
    async resolve(input, staff) {
      const user = await getPrisma().staffUser.findUnique({ where: { id: pick(input) }, select: { id: true, email: true, tenantIds: true } });
      if (!user) return missing();
      if (!administers(staff, user.tenantIds)) return outOfScope("staff account outside the admin's scope");
      return found({ id: Number(user.id), email: user.email, tenantIds: user.tenantIds });
    },
  };
}

/** An admin administers a staff account when every one of its tenants is within the admin's own. */
export function administers(staff: Pick<Staff, "tenantIds">, tenantIds: readonly string[]): boolean {
  return tenantIds.every((t) => inScope(staff, t));
}

/** An API key of a tenant in the caller's scope, by its public prefix. */
export function apiKeyScope<I>(pick: (input: I) => string): ScopeRule<I, { readonly prefix: string; readonly tenantId: string }> {
  return {
    kind: "api-key",
    target: (input) => `apikey:${pick(input)}`,
    async resolve(input, staff) {
      const key = await getPrisma().apiKey.findUnique({ where: { prefix: pick(input) }, select: { prefix: true, tenantId: true } });
      if (!key) return missing();
      if (!inScope(staff, key.tenantId)) return outOfScope("tenant out of scope");
      return found(key);
    },
  };
}

/**
 * A bulk batch of `kind` (a BatchKind of lib/bulk/batch-kind.ts, named as text here: lib/bulk sits
 * above lib/auth) of a tenant in the caller's scope; a batch of another kind is not found.
 */
export function batchScope<I>(pick: (input: I) => string, kind = "compensation"): ScopeRule<I, { readonly batchId: string; readonly tenantId: string }> {
  return {
    kind: "bulk-batch",
    target: (input) => `bulk:${pick(input)}`,
    async resolve(input, staff) {
      const batch = await getPrisma().bulkBatch.findUnique({ where: { id: pick(input) }, select: { id: true, tenantId: true, kind: true } });
      if (!batch || batch.kind !== kind) return missing();
      if (!inScope(staff, batch.tenantId)) return outOfScope("tenant out of scope");
      return found({ batchId: batch.id, tenantId: batch.tenantId });
    },
  };
}

/** A refund approval request of a tenant in the caller's scope. */
export function approvalScope<I>(pick: (input: I) => number): ScopeRule<I, { readonly id: number; readonly tenantId: string }> {
  return {
    kind: "refund-approval",
    target: (input) => `approval:${pick(input)}`,
    async resolve(input, staff) {
      const approval = await getPrisma().refundApproval.findUnique({ where: { id: pick(input) }, select: { id: true, tenantId: true } });
      if (!approval) return missing();
      if (!inScope(staff, approval.tenantId)) return outOfScope("tenant out of scope");
      return found({ id: Number(approval.id), tenantId: approval.tenantId });
    },
  };
}

/** A case (an exceptions row, lib/cases) of a tenant in the caller's scope. */
export function caseScope<I>(pick: (input: I) => number): ScopeRule<I, { readonly id: number; readonly tenantId: string; readonly kind: string }> {
  return {
    kind: "case",
    target: (input) => `case:${pick(input)}`,
    async resolve(input, staff) {
      const row = await getPrisma().orderException.findUnique({ where: { id: pick(input) }, select: { id: true, tenantId: true, kind: true } });
      if (!row) return missing();
      if (!inScope(staff, row.tenantId)) return outOfScope("tenant out of scope");
      return found({ id: Number(row.id), tenantId: row.tenantId, kind: row.kind });
    },
  };
}

/** A store refund review (lib/stores/reviews) of a tenant in the caller's scope. */
export function refundReviewScope<I>(pick: (input: I) => number): ScopeRule<I, { readonly id: number; readonly tenantId: string }> {
  return {
    kind: "refund-review",
    target: (input) => `refund-review:${pick(input)}`,
    async resolve(input, staff) {
      const id = pick(input);
      // An address naming no id (the review page's route reads it from the path) is missing, unread.
      if (!Number.isSafeInteger(id) || id <= 0) return missing();
      const review = await getPrisma().refundReview.findUnique({ where: { id }, select: { id: true, tenantId: true } });
      if (!review) return missing();
      if (!inScope(staff, review.tenantId)) return outOfScope("tenant out of scope");
      return found({ id: Number(review.id), tenantId: review.tenantId });
    },
  };
}

/** An outbox message (the deliveries page) of a tenant in the caller's scope. */
export function outboxMessageScope<I>(pick: (input: I) => number): ScopeRule<I, { readonly id: number; readonly tenantId: string }> {
  return {
    kind: "outbox-message",
    target: (input) => `outbox:${pick(input)}`,
    async resolve(input, staff) {
      const id = pick(input);
      if (!Number.isSafeInteger(id) || id <= 0) return missing();
      const message = await getPrisma().outboxMessage.findUnique({ where: { id }, select: { id: true, tenantId: true } });
      if (!message) return missing();
      if (!inScope(staff, message.tenantId)) return outOfScope("tenant out of scope");
      return found({ id: Number(message.id), tenantId: message.tenantId });
    },
  };
}

/**
 * Resolves a rule for a caller: the resource, or an AppError to answer with. An out-of-scope
 * attempt is audited (access.denied) before the caller hears "not found".
 */
export async function resolveScope<I, R>(rule: ScopeRule<I, R>, input: I, staff: Staff): Promise<R> {
  const resolution = await rule.resolve(input, staff);
  if (resolution.ok) return resolution.resource;
  if (resolution.denied) {
    await audit({
      actor: actorOf(staff),
      action: "access.denied",
      target: rule.target(input),
      tenantId: rule.tenantOf?.(input) ?? null,
      detail: { reason: resolution.denied },
    });
  }
  throw resolution.error;
}
