import { getTranslations } from "next-intl/server";
import { ChartSkeleton } from "@/components/dashboard/chart-card";

export default async function DashboardLoading() {
  const t = await getTranslations("dashboard");
  return (
    <div className="space-y-6" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <div className="grid gap-4 md:grid-cols-2">
        <ChartSkeleton title={t("states.title")} />
        <ChartSkeleton title={t("stuck.title")} />
        <ChartSkeleton title={t("lost.title")} />
        <ChartSkeleton title={t("refunds.title")} />
      </div>
    </div>
  );
}
