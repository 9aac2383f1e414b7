import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { OrderCases } from "@/components/cases/order-cases";
import { EventActions } from "@/components/orders/event-actions";
import { GrantLineButton } from "@/components/orders/grant-line-form";
import { RepairDeliveryButton } from "@/components/orders/repair-delivery-button";
import { LineProgressList } from "@/components/orders/line-progress";
import { LiveOrder } from "@/components/orders/live-order";
import { NextEvents } from "@/components/orders/next-events";
import { DwellFlag, OrderFacts, PendingApprovalBanner, RefusedRefunds } from "@/components/orders/order-summary";
import { StateBadge } from "@/components/orders/state-badge";
import { StateDiagram } from "@/components/orders/state-diagram";
import { takeBackPreview } from "@/components/orders/take-back-preview";
import { TakenBackList } from "@/components/orders/taken-back-list";
import { Timeline } from "@/components/orders/timeline";
import { RefundWatchBanner } from "@/components/players/refund-watch-banner";
import { Breakable } from "@/components/ui/breakable";
import { CopyButton } from "@/components/ui/copy-button";
import { pathSegment, requireResource, requireStaff } from "@/lib/auth/page";
import { can, CONSOLE_EVENTS } from "@/lib/auth/permissions";
import { orderScope } from "@/lib/auth/scope";
import { GRANTABLE_STATES } from "@/lib/orders/grant-decision";
import { availableEvents } from "@/lib/orders/machine";
import { paymentOf } from "@/lib/orders/payment";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";
import { getOrderPageFacts } from "@/lib/orders/queries/order-page-facts";
import { eventsOffered, pendingApproval, refundNeedsApprovalOf, refusedRefunds } from "@/lib/orders/refund-history";
import { dwellOf } from "@/lib/orders/stuck";
import { mergeTimeline } from "@/lib/orders/timeline";

type Props = { params: Promise<{ tenant: string; orderNo: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orderNo } = await params;
  const t = await getTranslations("orderPage");
  return { title: t("title", { orderNo: pathSegment(orderNo) }) };
}

export default async function OrderPage({ params }: Props) {
  const staff = await requireStaff("orders:view");
  const { tenant: rawTenant, orderNo: rawOrderNo } = await params;
  const tenant = pathSegment(rawTenant);
  const orderNo = pathSegment(rawOrderNo);
  // Out of scope looks exactly like missing (and is audited): ids cannot be probed across tenants.
  const resolved = await requireResource(staff, orderScope((v: { tenant: string; orderNo: string }) => v), { tenant, orderNo });
  const [detail, facts] = await Promise.all([getOrderDetail(tenant, orderNo), getOrderPageFacts(tenant, orderNo)]);
  if (!detail || !facts) notFound();
  const { order } = detail;
  const t = await getTranslations("orderPage");

  const whitelist = CONSOLE_EVENTS[staff.role];
  const waiting = pendingApproval(detail.approvals);
  // Legal, whitelisted for the role, and not refused before it is sent (a second refund request).
  const actions = eventsOffered(
    availableEvents(order.state).flatMap((e) => (e.allowed && whitelist.includes(e.event) ? [e.event] : [])),
    waiting,
  );
  // Compensating grants and repair: ops and up, only while grants are possible at all.
  const canRepair = can(staff.role, "orders:grant") && GRANTABLE_STATES.includes(order.state);
  // Newest first: the latest refund request says where reject-refund (refunding) or a store's reverse-refund (refunded) leads.
  const refundFrom = order.state === "refunding" || order.state === "refunded" ? (detail.transitions.find((tr) => tr.event === "request-refund")?.from ?? null) : null;
  const refused = refusedRefunds(detail.approvals, detail.transitions);
  // What a refund would take back, for the refund forms: only when the viewer is offered one.
  const takeBack =
    actions.includes("request-refund") || actions.includes("confirm-refund")
      ? { lines: takeBackPreview(detail.lines, facts.takeBackRules), revokeEndpointSet: facts.revokeEndpointSet }
      : undefined;
  // Said in the request-refund form before Confirm, by the rule request-refund decides with.
  const refundApproval =
    actions.includes("request-refund") && facts.refundApprovalAmount !== null && refundNeedsApprovalOf(order.amount, facts.refundApprovalAmount)
      ? { amount: facts.refundApprovalAmount }
      : undefined;

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
            <LiveOrder tenant={tenant} orderNo={orderNo} version={order.version} />
          </span>
        </div>
        <OrderFacts order={order} tenantName={facts.tenantName} createdAt={facts.createdAt} payment={paymentOf(detail.transitions, facts.paymentOrigin)} />
        <DwellFlag state={order.state} stateAt={order.stateAt} dwell={dwellOf(order.state, facts.secondsInState, facts.thresholds)} />
        {facts.refundWatch ? (
          <div className="mt-4">
            <RefundWatchBanner watch={facts.refundWatch} tenantId={tenant} playerId={order.playerId} linked />
          </div>
        ) : null}
        {waiting || refused.length > 0 ? (
          <div className="mt-4 grid gap-3 lg:grid-cols-2">
            {waiting ? <PendingApprovalBanner approval={waiting} canApprove={can(staff.role, "refunds:approve")} /> : null}
            <RefusedRefunds refused={refused} />
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
              events={actions}
              cannedReasons={facts.cannedReasons}
              takeBack={takeBack}
              refundApproval={refundApproval}
            />
            {/* Mounted for ops while repair is not possible, so what a finished repair did stays said. */}
            {can(staff.role, "orders:grant") ? <RepairDeliveryButton tenant={tenant} orderNo={orderNo} hidden={!canRepair} /> : null}
          </div>
          {actions.length === 0 && !canRepair ? <p className="text-sm text-slate-500">{t("noActions")}</p> : null}
        </div>
      </section>

      {/* Cases on this order (issue 13): open ones first, with what can be done about them. */}
      <OrderCases order={resolved} staff={staff} />


      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="font-semibold">{t("lines")}</h2>
        <LineProgressList
          lines={detail.lines}
          takeBacks={facts.takeBacks}
          actionFor={(line) => (canRepair ? <GrantLineButton tenant={tenant} orderNo={orderNo} sku={line.sku} pending={line.pending} /> : null)}
        />
      </section>

      {facts.takeBacks.length > 0 ? (
        <section className="space-y-2 rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="taken-back-heading">
          <h2 id="taken-back-heading" className="font-semibold">
            {t("takenBack")}
          </h2>
          <TakenBackList takeBacks={facts.takeBacks} />
        </section>
      ) : null}

      {/* One card: the picture as wide as the card, what can happen next under it (side by side,
          the list's height left the picture's card half empty). */}
      <section className="rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="diagram-heading">
        <h2 id="diagram-heading" className="mb-2 font-semibold">
          {t("diagram")}
        </h2>
        <StateDiagram state={order.state} previous={refundFrom} />
        <h3 className="mb-2 mt-4 border-t border-slate-100 pt-4 text-sm font-semibold">{t("next")}</h3>
        <NextEvents state={order.state} role={staff.role} />
      </section>

      {/* The one history of the order: transitions, grants, approvals, exceptions, webhook messages
          (the outbox table it replaces) and internal notes, with the note composer. */}
      <section className="rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className="mb-3 font-semibold">
          {t("timelineTitle")}
        </h2>
        <Timeline entries={mergeTimeline(detail)} currency={order.currency} note={{ tenant, orderNo }} />
      </section>
    </div>
  );
}
