import "server-only";
import type { Staff } from "@/lib/auth/staff";
import { dailySeries, type DailySeries } from "@/lib/dashboard/queries/daily-series";
import { stateCounts, type TenantStateCounts } from "@/lib/orders/queries/state-counts";
import { stuckCounts, type CappedCount, type StuckStateCount } from "@/lib/orders/queries/stuck-counts";

/** A product's cheap figures on the dashboard: orders per state now, and how many are stuck per state. */
export interface DashboardProduct extends TenantStateCounts {
  /** One per stuck state, with the product's threshold for it (empty for a product without settings). */
  readonly stuck: readonly StuckStateCount[];
  readonly stuckTotal: CappedCount;
}

/**
 * The dashboard's read model, for the caller's products: the counts, which show at once. Each
 * product's 30-day series is the heavier read and comes on its own (readDashboardDaily), so a slow
 * series never holds the counts back.
 */
export interface DashboardModel {
  readonly products: readonly DashboardProduct[];
}

export async function readDashboard(staff: Staff): Promise<DashboardModel> {
  const [counts, stuck] = await Promise.all([stateCounts(staff.tenantIds), stuckCounts(staff.tenantIds)]);
  const none: CappedCount = { count: 0, more: false };
  return {
    products: counts.map((tenant) => {
      const mine = stuck.find((s) => s.tenantId === tenant.tenantId);
      return { ...tenant, stuck: mine?.byState ?? [], stuckTotal: mine?.total ?? none };
    }),
  };
}

/** One product's lost orders and refunds per day (lib/dashboard/queries/daily-series.ts); the route has admitted the tenant. */
export type DashboardDailyModel = DailySeries;

export function readDashboardDaily(tenantId: string): Promise<DashboardDailyModel> {
  return dailySeries(tenantId);
}
