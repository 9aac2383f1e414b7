"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { notFound, usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { OrderCases } from "@/components/cases/order-cases";
import { EventActions } from "@/components/orders/event-actions";
import { GrantLineButton } from "@/components/orders/grant-line-form";
import { LineProgressList } from "@/components/orders/line-progress";
import { LiveOrder, LiveOrderProvider } from "@/components/orders/live-order";
import { NextEvents } from "@/components/orders/next-events";
import { DwellFlag, OrderFacts, PendingApprovalBanner, RefusedRefunds } from "@/components/orders/order-summary";
import { RepairDeliveryButton } from "@/components/orders/repair-delivery-button";
import { StateBadge } from "@/components/orders/state-badge";
import { StateDiagram } from "@/components/orders/state-diagram";
import { TakenBackList } from "@/components/orders/taken-back-list";
import { Timeline } from "@/components/orders/timeline";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { RefundWatchBanner } from "@/components/players/refund-watch-banner";
import { RefreshViewProvider } from "@/components/query-provider";
import { Breakable } from "@/components/ui/breakable";
import { CopyButton } from "@/components/ui/copy-button";
import { RecordLoading } from "@/components/ui/page-loading";
import { useRecordTitle } from "@/components/ui/record-title";
import { orderPageQuery } from "@/components/record-queries";
import type { OrderPageModel } from "@/lib/read/order-page";
import { orderHref, RECORD_PAGES, recordOfPath } from "@/lib/http/record-pages";

/**
 * The order page: its read model (lib/read/order-page.ts) from one JSON route, laid out here. The
 * model is read again — never re-rendered on the server — when LiveOrder sees a new version, or when
 * a form on the page changed something (useRefreshView).
 *
 * One shell serves every order (proxy.ts rewrites /orders/<tenant>/<orderNo> to it), so the order is
 * named by the address in the browser, not by the page's params.
 */
export function OrderPageView() {
  const { tenant, orderNo } = recordOfPath(RECORD_PAGES.order, usePathname()) ?? notFound();
  const client = useQueryClient();
  const query = orderPageQuery(tenant, orderNo);
  const { data, error } = useQuery({
    // Opened from the cache (a link's prefetch, back or forward), then read again unless just read.
    ...query,
    // The version poll says when the order moved; a refetch on focus would change a form's basis under it.
    refetchOnWindowFocus: false,
    retry: retryRead,
  });
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: orderPageQuery(tenant, orderNo).queryKey }), [client, tenant, orderNo]);
  useRecordTitle(useTranslations("orderPage")("title", { orderNo }));

  if (error) showReadRefusal(error, orderHref(tenant, orderNo), "orders:view");
  if (!data) return <OrderPageLoading />;
  return (
    <RefreshViewProvider refresh={refresh}>
      <LiveOrderProvider tenant={tenant} orderNo={orderNo} version={data.order.version}>
        <OrderPageBody tenant={tenant} orderNo={orderNo} model={data} />
      </LiveOrderProvider>
    </RefreshViewProvider>
  );
}

function OrderPageLoading() {
  return <RecordLoading status={useTranslations("orderPage")("loading")} />;
}

function OrderPageBody({ tenant, orderNo, model: m }: { tenant: string; orderNo: string; model: OrderPageModel }) {
  const t = useTranslations("orderPage");
  const { order, viewer } = m;
  return (
    <div className="space-y-6">
      <section className="rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="order-heading">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="order-heading" className="font-mono text-xl font-semibold">
            <Breakable text={order.orderNo} />
          </h1>
          <CopyButton value={order.orderNo} />
          <StateBadge state={order.state} />
          <span className="text-sm text-slate-500">{t("version", { version: order.version })}</span>
          <span className="ml-auto">
            <LiveOrder />
          </span>
        </div>
        <OrderFacts order={order} tenantName={m.tenantName} createdAt={m.createdAt} payment={m.payment} />
        <DwellFlag state={order.state} stateAt={order.stateAt} dwell={m.dwell} />
        {m.refundWatch ? (
          <div className="mt-4">
            <RefundWatchBanner watch={m.refundWatch} tenantId={tenant} playerId={order.playerId} linked />
          </div>
        ) : null}
        {m.waiting || m.refused.length > 0 ? (
          <div className="mt-4 grid gap-3 lg:grid-cols-2">
            {m.waiting ? <PendingApprovalBanner approval={m.waiting} canApprove={viewer.canApprove} /> : null}
            <RefusedRefunds refused={m.refused} />
          </div>
        ) : null}
        <div className="mt-4 border-t border-slate-100 pt-4">
          <h2 className="mb-2 text-sm font-semibold">{t("actions")}</h2>
          {/* Always mounted: an open form outlives the order moving to a state with no actions. */}
          <div className="flex flex-wrap gap-2">
            <EventActions
              tenant={tenant}
              orderNo={orderNo}
              version={order.version}
              state={order.state}
              currency={order.currency}
              events={m.events}
              cannedReasons={m.cannedReasons}
              takeBack={m.takeBack ?? undefined}
              refundApproval={m.refundApproval ?? undefined}
            />
            {/* Mounted for ops while repair is not possible, so what a finished repair did stays said. */}
            {viewer.canGrant ? <RepairDeliveryButton tenant={tenant} orderNo={orderNo} hidden={!m.canRepair} /> : null}
          </div>
          {m.events.length === 0 && !m.canRepair ? <p className="text-sm text-slate-500">{t("noActions")}</p> : null}
        </div>
      </section>

      {/* Cases on this order (issue 13): open ones first, with what can be done about them. */}
      <OrderCases cases={m.cases} me={viewer.actor} />

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="font-semibold">{t("lines")}</h2>
        <LineProgressList
          lines={m.lines}
          takeBacks={m.takeBacks}
          // Mounted for ops whatever the state: an open grant form outlives the order moving on (its warning says so).
          actionFor={(line) => (viewer.canGrant ? <GrantLineButton tenant={tenant} orderNo={orderNo} sku={line.sku} pending={line.pending} hidden={!m.canRepair} /> : null)}
        />
      </section>

      {m.takeBacks.length > 0 ? (
        <section className="space-y-2 rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="taken-back-heading">
          <h2 id="taken-back-heading" className="font-semibold">
            {t("takenBack")}
          </h2>
          <TakenBackList takeBacks={m.takeBacks} />
        </section>
      ) : null}

      {/* One card: the picture as wide as the card, what can happen next under it (side by side,
          the list's height left the picture's card half empty). */}
      <section className="rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="diagram-heading">
        <h2 id="diagram-heading" className="mb-2 font-semibold">
          {t("diagram")}
        </h2>
        <StateDiagram state={order.state} previous={m.refundFrom} />
        <h3 className="mb-2 mt-4 border-t border-slate-100 pt-4 text-sm font-semibold">{t("next")}</h3>
        <NextEvents state={order.state} role={viewer.role} />
      </section>

      {/* The one history of the order: transitions, grants, approvals, exceptions, webhook messages
          (the outbox table it replaces) and internal notes, with the note composer. */}
      <section className="rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className="mb-3 font-semibold">
          {t("timelineTitle")}
        </h2>
        <Timeline entries={m.timeline} currency={order.currency} note={{ tenant, orderNo }} />
      </section>
    </div>
  );
}
