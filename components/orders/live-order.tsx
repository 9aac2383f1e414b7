"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { useRefreshView } from "@/components/query-provider";
import { useAnyDialogOpen } from "@/components/ui/dialog";
import type { OrderVersion } from "@/lib/read/order-version";
import { readModel } from "@/lib/read/wire";

const POLL_MS = 3_000;

/**
 * Polls the order's version (one index lookup); when a callback or a colleague moves the order, the
 * page reads its read model again within a few seconds — nothing is rendered on the server. While a
 * dialog is open the page holds still and the poll pauses (new data would change or remove what the
 * person is reading); once the last dialog closes, a change seen meanwhile is shown at once.
 */
export function LiveOrder({ tenant, orderNo, state, version }: { tenant: string; orderNo: string; state: string; version: number }) {
  const t = useTranslations("orderPage");
  const refresh = useRefreshView();
  const reading = useAnyDialogOpen();
  const { data } = useQuery({
    queryKey: ["order-version", tenant, orderNo],
    queryFn: ({ signal }) => readModel<OrderVersion>(`/api/console/orders/${encodeURIComponent(tenant)}/${encodeURIComponent(orderNo)}`, signal),
    refetchInterval: reading ? false : POLL_MS,
    // The page's model was just read: the first poll is one interval later, not at once.
    initialData: { state, version },
    initialDataUpdatedAt: Date.now,
    staleTime: POLL_MS,
  });
  // Newer only: right after a change of its own the page may already be ahead of the last poll.
  const moved = data !== undefined && data.version > version;
  useEffect(() => {
    if (moved && !reading) void refresh();
  }, [moved, data?.version, reading, refresh]);
  return (
    <span className="inline-flex items-center gap-1 text-xs text-slate-500" aria-live="polite" data-testid="order-live">
      <span className={`h-2 w-2 rounded-full ${reading ? "bg-slate-400" : "animate-pulse bg-emerald-500"}`} aria-hidden />
      {reading ? t("paused") : moved ? t("updated") : t("live")}
    </span>
  );
}
