import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { CategoryBarChart } from "@/components/dashboard/category-bar-chart";
import { ChartCard, ChartSkeleton } from "@/components/dashboard/chart-card";
import { DailyCharts } from "@/components/dashboard/daily-charts";
import { STATE_COLORS } from "@/components/dashboard/state-colors";
import { requireStaff } from "@/lib/auth/page";
import { bestUnit } from "@/lib/format";
import { stuckCounts } from "@/lib/orders/queries/stuck-counts";
import { ORDER_STATES } from "@/lib/orders/machine";
import { stateCounts } from "@/lib/orders/queries/state-counts";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("dashboard");
  return { title: t("title") };
}

export default async function DashboardPage() {
  const staff = await requireStaff("orders:view");
  const t = await getTranslations("dashboard");
  const states = await getTranslations("state");
  const durations = await getTranslations("settings.durations");
  // The cheap figures for every tenant at once; the 30-day series stream in per tenant below.
  const [counts, stuck] = await Promise.all([stateCounts(staff.tenantIds), stuckCounts(staff.tenantIds)]);

  return (
    <div className="space-y-10">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("subtitle")}</p>
      </div>
      {counts.length === 0 ? <p className="rounded border border-dashed border-slate-300 p-6 text-slate-600">{t("noTenants")}</p> : null}
      {counts.map((tenant) => {
        const stuckStates = stuck.find((s) => s.tenantId === tenant.tenantId)?.byState ?? [];
        const stuckTotal = stuck.find((s) => s.tenantId === tenant.tenantId)?.total.count ?? 0;
        // Each bar opens its orders: the list filtered by the same product and state (and stuck).
        const orders = (state: string, stuck = false) => `/orders?tenant=${encodeURIComponent(tenant.tenantId)}&state=${state}${stuck ? "&stuck=1" : ""}`;
        const byState = ORDER_STATES.map((state) => ({ key: state, label: states(state), value: tenant.byState[state], color: STATE_COLORS[state], href: orders(state) }));
        const stuckBars = stuckStates.map((s) => ({ key: s.state, label: states(s.state), value: s.count, color: STATE_COLORS[s.state], href: orders(s.state, true) }));
        const links = (bars: readonly { key: string; label: string; value: number; href: string }[]) => ({
          label: t("openOrders"),
          scope: tenant.tenantName,
          items: bars.filter((b) => b.value > 0).map((b) => ({ key: b.key, text: t("barLink", { state: b.label, count: b.value }), href: b.href })),
        });
        const thresholds = stuckStates
          .map((s) => {
            if (s.thresholdSeconds === null) return `${states(s.state)}: ${t("stuck.noThreshold")}`;
            const { value, unit } = bestUnit(s.thresholdSeconds);
            return `${states(s.state)} > ${durations(unit, { n: value })}`;
          })
          .join(" · ");
        return (
          <section key={tenant.tenantId} aria-labelledby={`dashboard-${tenant.tenantId}`} className="space-y-4">
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
                description={`${t("stuck.description", { total: stuckTotal })} ${thresholds}`}
                table={{ headers: [t("state"), t("stuck.value")], rows: stuckBars.map((b) => [b.label, b.value] as const) }}
                empty={stuckTotal === 0 ? t("stuck.empty") : null}
                links={links(stuckBars)}
              >
                <CategoryBarChart data={stuckBars} valueLabel={t("stuck.value")} />
              </ChartCard>
              <Suspense
                fallback={
                  <>
                    <ChartSkeleton title={t("lost.title")} />
                    <ChartSkeleton title={t("refunds.title")} />
                  </>
                }
              >
                <DailyCharts tenantId={tenant.tenantId} />
              </Suspense>
            </div>
          </section>
        );
      })}
    </div>
  );
}
