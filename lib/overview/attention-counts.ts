import "server-only";
import { getPrisma } from "@/lib/db/prisma";

// What the overview asks someone to look at, per product, besides stuck orders
// (lib/orders/queries/stuck-counts.ts): refund requests waiting for a manager.

/** Refund requests waiting for a manager, per product (refund_approvals (tenant_id, status, created_at)). */
export async function pendingApprovalCounts(scope: readonly string[]): Promise<Readonly<Record<string, number>>> {
  if (scope.length === 0) return {};
  const groups = await getPrisma().refundApproval.groupBy({
    by: ["tenantId"],
    where: { tenantId: { in: [...new Set(scope)] }, status: "pending" },
    _count: { _all: true },
  });
  return Object.fromEntries(groups.map((g) => [g.tenantId, g._count._all]));
}
