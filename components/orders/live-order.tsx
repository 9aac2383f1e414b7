"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { anyDialogOpen } from "@/components/ui/dialog";

/**
 * Polls the order's version; when a callback or a colleague moves the order, the page re-renders
 * from the server within a few seconds, without a full reload.
 */
export function LiveOrder({ tenant, orderNo, version }: { tenant: string; orderNo: string; version: number }) {
  const t = useTranslations("orderPage");
  const router = useRouter();
  const { data } = useQuery({
    queryKey: ["order-version", tenant, orderNo],
    queryFn: async () => {
      const response = await fetch(`/api/console/orders/${encodeURIComponent(tenant)}/${encodeURIComponent(orderNo)}`);
      if (!response.ok) throw new Error(`order poll answered ${response.status}`);
      return (await response.json()) as { state: string; version: number };
    },
    refetchInterval: 3_000,
  });
  const moved = data !== undefined && data.version !== version;
  useEffect(() => {
    // While a form is open the page stays put (its dialog refreshes the page when it closes).
    if (moved && !anyDialogOpen()) router.refresh();
  }, [moved, data?.version, router]);
  return (
    <span className="inline-flex items-center gap-1 text-xs text-slate-500" aria-live="polite">
      <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden />
      {moved ? t("updated") : t("live")}
    </span>
  );
}
