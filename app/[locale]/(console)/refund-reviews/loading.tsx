import { getTranslations } from "next-intl/server";

export default async function RefundReviewsLoading() {
  const t = await getTranslations("refundReviews");
  return (
    <div className="space-y-4" aria-busy="true">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="text-sm text-slate-600">{t("loading")}</p>
      <div className="h-64 animate-pulse rounded-lg border border-slate-200 bg-white" />
    </div>
  );
}
