"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { CategoryBarChart } from "@/components/dashboard/category-bar-chart";
import { ChartCard, ChartSkeleton } from "@/components/dashboard/chart-card";
import { DailyCharts } from "@/components/dashboard/daily-charts";
import { STATE_COLORS } from "@/components/dashboard/state-colors";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import { bestUnit } from "@/lib/format";
import { ORDER_STATES } from "@/lib/orders/machine";
import type { DashboardModel, DashboardProduct } from "@/lib/read/dashboard";
import { readModel } from "@/lib/read/wire";

/**
 * Per product: orders per state and stuck orders per state, from one read model
 * (lib/read/dashboard.ts, /api/console/dashboard), shown as soon as it comes; each product's 30-day
 * charts then read their own series (DailyCharts), so the cheap part never waits for the heavy one.
 */
export function DashboardView() {
  const t = useTranslations("dashboard");
  const { data: m, error } = useQuery({
    queryKey: ["dashboard"],
    queryFn: ({ signal }) => readModel<DashboardModel>("/api/console/dashboard", signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/dashboard", "orders:view");
  if (!m) return <DashboardLoading />;
  return (
    <div className="space-y-10">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </div>
      {m.products.length === 0 ? <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noTenants")}</p> : null}
      {m.products.map((tenant) => (
        <ProductCharts key={tenant.tenantId} tenant={tenant} />
      ))}
    </div>
  );
}

function ProductCharts({ tenant }: { tenant: DashboardProduct }) {
  const t = useTranslations("dashboard");
  const states = useTranslations("state");
  const durations = useTranslations("settings.durations");
  // Each bar opens its orders: the list filtered by the same product and state (and stuck).
  const orders = (state: string, stuck = false) => `/orders?tenant=${encodeURIComponent(tenant.tenantId)}&state=${state}${stuck ? "&stuck=1" : ""}`;
  const byState = ORDER_STATES.map((state) => ({ key: state, label: states(state), value: tenant.byState[state], color: STATE_COLORS[state], href: orders(state) }));
  const stuckBars = tenant.stuck.map((s) => ({ key: s.state, label: states(s.state), value: s.count, color: STATE_COLORS[s.state], href: orders(s.state, true) }));
  const links = (bars: readonly { key: string; label: string; value: number; href: string }[]) => ({
    label: t("openOrders"),
    scope: tenant.tenantName,
    items: bars.filter((b) => b.value > 0).map((b) => ({ key: b.key, text: t("barLink", { state: b.label, count: b.value }), href: b.href })),
  });
  const thresholds = tenant.stuck
    .map((s) => {
      if (s.thresholdSeconds === null) return `${states(s.state)}: ${t("stuck.noThreshold")}`;
      const { value, unit } = bestUnit(s.thresholdSeconds);
      return `${states(s.state)} > ${durations(unit, { n: value })}`;
    })
    .join(" · ");
  return (
    <section aria-labelledby={`dashboard-${tenant.tenantId}`} className="space-y-4">
      <h2 id={`dashboard-${tenant.tenantId}`} className="flex items-baseline gap-3 text-lg font-semibold">
        {tenant.tenantName} <span className="font-mono text-xs font-normal text-slate-500">{tenant.tenantId}</span>
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <ChartCard
          testId={`states-${tenant.tenantId}`}
          title={t("states.title")}
          description={t("states.description", { total: tenant.total })}
          table={{ headers: [t("state"), t("states.value")], rows: byState.map((b) => [b.label, b.value] as const) }}
          empty={tenant.total === 0 ? t("states.empty") : null}
          links={links(byState)}
        >
          <CategoryBarChart data={byState} valueLabel={t("states.value")} />
        </ChartCard>
        <ChartCard
          testId={`stuck-${tenant.tenantId}`}
          title={t("stuck.title")}
          description={`${t("stuck.description", { total: tenant.stuckTotal.count })} ${thresholds}`}
          table={{ headers: [t("state"), t("stuck.value")], rows: stuckBars.map((b) => [b.label, b.value] as const) }}
          empty={tenant.stuckTotal.count === 0 ? t("stuck.empty") : null}
          links={links(stuckBars)}
        >
          <CategoryBarChart data={stuckBars} valueLabel={t("stuck.value")} />
        </ChartCard>
        <DailyCharts tenantId={tenant.tenantId} />
      </div>
    </section>
  );
}

function DashboardLoading() {
  const t = useTranslations("dashboard");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-7 w-48" />
      <div className="grid gap-4 md:grid-cols-2">
        <ChartSkeleton title={t("states.title")} />
        <ChartSkeleton title={t("stuck.title")} />
        <ChartSkeleton title={t("lost.title")} />
        <ChartSkeleton title={t("refunds.title")} />
      </div>
    </PageLoading>
  );
}
