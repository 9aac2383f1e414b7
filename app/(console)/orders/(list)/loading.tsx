import { getTranslations } from "next-intl/server";

// Also shown while an order page under /orders/… loads, so it stays generic: a title and rows.
export default async function OrdersLoading() {
  const t = await getTranslations("orders");
  return (
    <div className="space-y-6" aria-busy="true">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-500" role="status">
          {t("loading")}
        </p>
      </div>
      <div className="h-36 animate-pulse rounded-lg border border-slate-200 bg-white" />
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="flex gap-4 border-b p-3 last:border-0">
            <div className="h-4 w-40 animate-pulse rounded bg-slate-200" />
            <div className="h-4 w-24 animate-pulse rounded bg-slate-100" />
            <div className="h-4 w-28 animate-pulse rounded bg-slate-100" />
            <div className="ml-auto h-4 w-16 animate-pulse rounded bg-slate-100" />
            <div className="h-4 w-20 animate-pulse rounded bg-slate-200" />
          </div>
        ))}
      </div>
    </div>
  );
}
