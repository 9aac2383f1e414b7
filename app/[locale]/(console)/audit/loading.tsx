import { getTranslations } from "next-intl/server";

export default async function AuditLoading() {
  const t = await getTranslations("audit");
  return (
    <div className="space-y-6" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <div className="h-40 animate-pulse rounded-lg border border-slate-200 bg-white" />
      <p className="text-sm text-slate-500">{t("loading")}</p>
    </div>
  );
}
