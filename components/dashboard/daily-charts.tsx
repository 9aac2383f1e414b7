"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { bestUnit } from "@/lib/format";
import type { DashboardDailyModel } from "@/lib/read/dashboard";
import { readModel } from "@/lib/read/wire";
import { ChartCard, ChartSkeleton } from "./chart-card";
import { DailyBarChart } from "./daily-bar-chart";

/**
 * Lost orders and refunds per day for one tenant: the heavier read, its own query per product
 * (/api/console/dashboard/daily), so the counts above show while it comes.
 */
export function DailyCharts({ tenantId }: { tenantId: string }) {
  const t = useTranslations("dashboard");
  const durations = useTranslations("settings.durations");
  const { data: series, error } = useQuery({
    queryKey: ["dashboard", "daily", tenantId],
    queryFn: ({ signal }) => readModel<DashboardDailyModel>(`/api/console/dashboard/daily?${new URLSearchParams({ tenant: tenantId })}`, signal),
    retry: retryRead,
  });
  if (error) showReadRefusal(error, "/dashboard", "orders:view");
  if (!series) {
    return (
      <>
        <ChartSkeleton title={t("lost.title")} />
        <ChartSkeleton title={t("refunds.title")} />
      </>
    );
  }
  const after = series.lostAfterSeconds === null ? null : bestUnit(series.lostAfterSeconds);
  const lost = series.days.map((d) => ({ day: d.day, value: d.lost }));
  const refunds = series.days.map((d) => ({ day: d.day, value: d.refunds }));
  const total = (points: readonly { value: number }[]) => points.reduce((n, p) => n + p.value, 0);
  const table = (points: readonly { day: string; value: number }[], what: string) => ({
    headers: [t("dayUtc"), what] as const,
    rows: points.map((p) => [p.day, p.value] as const),
  });
  return (
    <>
      <ChartCard
        testId={`lost-${tenantId}`}
        title={t("lost.title")}
        description={
          after === null ? t("lost.noThreshold") : t("lost.description", { after: durations(after.unit, { n: after.value }), total: total(lost) })
        }
        table={table(lost, t("lost.value"))}
        empty={series.lostAfterSeconds === null ? t("lost.noThreshold") : total(lost) === 0 ? t("lost.empty") : null}
        note={t("lost.click")}
      >
        {/* The list cannot filter by payment day: a day's bar opens the orders created that day. */}
        <DailyBarChart data={lost} valueLabel={t("lost.value")} color="#dc2626" ordersHref={`/orders?tenant=${encodeURIComponent(tenantId)}`} />
      </ChartCard>
      <ChartCard
        testId={`refunds-${tenantId}`}
        title={t("refunds.title")}
        description={t("refunds.description", { total: total(refunds) })}
        table={table(refunds, t("refunds.value"))}
        empty={total(refunds) === 0 ? t("refunds.empty") : null}
        note={t("refunds.click")}
      >
        <DailyBarChart data={refunds} valueLabel={t("refunds.value")} color="#7c3aed" ordersHref={`/orders?tenant=${encodeURIComponent(tenantId)}&state=refunded`} />
      </ChartCard>
    </>
  );
}
