import "server-only";
import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import type { CaseCounts } from "@/lib/cases/queries/case-counts";
import { caseCounts } from "@/lib/cases/queries/case-counts";
import { unsentRefundCounts, type UnsentRefunds } from "@/lib/cases/queries/unsent-refunds";
import { stateCounts, type TenantStateCounts } from "@/lib/orders/queries/state-counts";
import { stuckByState, stuckCounts, sumCounts, type CappedCount } from "@/lib/orders/queries/stuck-counts";
import type { StuckState } from "@/lib/orders/stuck";
import { endpointHealth, FAILING_FOR_MS } from "@/lib/deliveries/endpoint-health";
import { getPool } from "@/lib/db/pool";
import { pendingApprovalCounts } from "@/lib/overview/attention-counts";
import { reviewsNearDeadline, type NearDeadline } from "@/lib/stores/reviews/near-deadline";
import { NEAR_DEADLINE_MS } from "@/lib/stores/reviews/review-state";

/** A product's row on the overview: orders per state, and how many of them are stuck. */
export interface OverviewProduct extends TenantStateCounts {
  readonly stuck: CappedCount;
}

/** Store refund reviews close to their deadline, and how close "close" is. */
export interface ReviewsNearDeadline extends NearDeadline {
  readonly withinHours: number;
}

/**
 * The overview's read model, for the caller's products: what needs a person (stuck orders per state,
 * refunds waiting for approval, overdue cases, store refund reviews near their deadline, channel
 * refunds that never left), then orders per state per product.
 */
export interface OverviewModel {
  readonly products: readonly OverviewProduct[];
  readonly stuck: CappedCount;
  readonly stuckPerState: Readonly<Record<StuckState, CappedCount>>;
  readonly approvals: number;
  /** Whether the viewer decides approvals (the card links to them). */
  readonly canApprove: boolean;
  readonly cases: CaseCounts;
  readonly reviewsNearDeadline: ReviewsNearDeadline;
  readonly unsentRefunds: readonly UnsentRefunds[];
  /**
   * Webhook endpoints that have answered nothing but failures for more than `failingAfterMinutes`
   * (lib/deliveries/endpoint-health.ts); read only for a role that may open the deliveries page it links to.
   */
  readonly failingEndpoints: readonly { readonly tenantId: string; readonly url: string; readonly failingSince: Date }[];
  readonly failingAfterMinutes: number;
}

export async function readOverview(staff: Staff): Promise<OverviewModel> {
  const scope = staff.tenantIds;
  const [tenants, stuck, approvals, cases, nearDeadline, unsent, health] = await Promise.all([
    stateCounts(scope),
    stuckCounts(scope),
    pendingApprovalCounts(scope),
    caseCounts(scope),
    reviewsNearDeadline(scope),
    unsentRefundCounts(scope),
    can(staff.role, "deliveries:view") ? endpointHealth(getPool(), scope, new Date()) : [],
  ]);
  const none: CappedCount = { count: 0, more: false };
  return {
    products: tenants.map((t) => ({ ...t, stuck: stuck.find((p) => p.tenantId === t.tenantId)?.total ?? none })),
    stuck: sumCounts(stuck.map((p) => p.total)),
    stuckPerState: stuckByState(stuck),
    approvals: Object.values(approvals).reduce((a, b) => a + b, 0),
    canApprove: can(staff.role, "refunds:approve"),
    cases,
    reviewsNearDeadline: { ...nearDeadline, withinHours: NEAR_DEADLINE_MS / 3_600_000 },
    unsentRefunds: unsent,
    failingEndpoints: health.filter((h) => h.failingTooLong).map((h) => ({ tenantId: h.tenantId, url: h.url, failingSince: h.failingSince! })),
    failingAfterMinutes: FAILING_FOR_MS / 60_000,
  };
}
