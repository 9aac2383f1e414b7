"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { BulkCompensation } from "@/components/bulk/bulk-compensation";
import { PastBatches } from "@/components/bulk/past-batches";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefreshViewProvider } from "@/components/query-provider";
import { PageLoading, Placeholder } from "@/components/ui/page-loading";
import type { BulkModel } from "@/lib/read/bulk";
import { readModel } from "@/lib/read/wire";

const BULK_KEY = ["bulk"] as const;

/**
 * Bulk compensation: the form works through a batch with server actions; the products it offers and
 * the past batches come from the page's read model (lib/read/bulk.ts, /api/console/bulk), read again
 * once a batch has run.
 */
export function BulkView() {
  const t = useTranslations("bulk");
  const queryClient = useQueryClient();
  const { data: m, error } = useQuery({
    queryKey: BULK_KEY,
    queryFn: ({ signal }) => readModel<BulkModel>("/api/console/bulk", signal),
    retry: retryRead,
  });
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: BULK_KEY }), [queryClient]);
  if (error) showReadRefusal(error, "/bulk", "orders:bulk");
  if (!m) return <BulkLoading />;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("intro")}</p>
      </div>
      <RefreshViewProvider refresh={refresh}>
        <BulkCompensation tenants={m.tenants} />
      </RefreshViewProvider>
      <PastBatches batches={m.batches} />
    </div>
  );
}

function BulkLoading() {
  const t = useTranslations("bulk");
  return (
    <PageLoading title={t("title")} status={t("loading")}>
      <Placeholder className="h-72" />
      <Placeholder className="h-40" />
    </PageLoading>
  );
}
