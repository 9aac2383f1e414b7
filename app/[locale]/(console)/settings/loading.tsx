import { getTranslations } from "next-intl/server";

export default async function SettingsLoading() {
  const t = await getTranslations("settings");
  return (
    <div className="space-y-6" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <div className="h-64 animate-pulse rounded-lg border border-slate-200 bg-white" />
    </div>
  );
}
