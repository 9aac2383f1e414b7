import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { EventActions } from "@/components/orders/event-actions";
import { GrantLineButton } from "@/components/orders/grant-line-form";
import { RepairDeliveryButton } from "@/components/orders/repair-delivery-button";
import { LineProgressList } from "@/components/orders/line-progress";
import { LiveOrder } from "@/components/orders/live-order";
import { EventName, ExceptionKindName, OutboxStatusName } from "@/components/orders/names";
import { NextEvents } from "@/components/orders/next-events";
import { StateBadge } from "@/components/orders/state-badge";
import { StateDiagram } from "@/components/orders/state-diagram";
import { Timeline } from "@/components/orders/timeline";
import { CopyButton } from "@/components/ui/copy-button";
import { Time } from "@/components/ui/time";
import { pathSegment, requireResource, requireStaff } from "@/lib/auth/page";
import { can, CONSOLE_EVENTS } from "@/lib/auth/permissions";
import { orderScope } from "@/lib/auth/scope";
import { formatMoney } from "@/lib/format";
import { GRANTABLE_STATES } from "@/lib/orders/grant-decision";
import { availableEvents } from "@/lib/orders/machine";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";

type Props = { params: Promise<{ tenant: string; orderNo: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orderNo } = await params;
  const t = await getTranslations("orderPage");
  return { title: t("title", { orderNo: pathSegment(orderNo) }) };
}

export default async function OrderPage({ params }: Props) {
  const staff = await requireStaff("orders:view");
  const { tenant, orderNo: rawOrderNo } = await params;
  const orderNo = pathSegment(rawOrderNo);
  // Out of scope looks exactly like missing (and is audited): ids cannot be probed across tenants.
  await requireResource(staff, orderScope((v: { tenant: string; orderNo: string }) => v), { tenant, orderNo });
  const detail = await getOrderDetail(tenant, orderNo);
  if (!detail) notFound();
  const { order } = detail;
  const t = await getTranslations("orderPage");

  const whitelist = CONSOLE_EVENTS[staff.role];
  const actions = availableEvents(order.state).flatMap((e) => (e.allowed && whitelist.includes(e.event) ? [e.event] : []));
  // Compensating grants and repair: ops and up, only while grants are possible at all.
  const canRepair = can(staff.role, "orders:grant") && GRANTABLE_STATES.includes(order.state);
  const refundFrom = order.state === "refunding" ? (detail.transitions.find((tr) => tr.event === "request-refund")?.from ?? null) : null;

  return (
    <div className="space-y-6">
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="font-mono text-xl font-semibold">{order.orderNo}</h1>
          <CopyButton value={order.orderNo} />
          <StateBadge state={order.state} />
          <span className="text-sm text-slate-500">{t("version", { version: order.version })}</span>
          <span className="ml-auto">
            <LiveOrder tenant={tenant} orderNo={orderNo} version={order.version} />
          </span>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-slate-500">{t("product")}</dt>
          <dd className="font-mono">{order.tenantId}</dd>
          <dt className="text-slate-500">{t("player")}</dt>
          <dd className="font-mono">
            {order.playerId} <CopyButton value={order.playerId} />
          </dd>
          <dt className="text-slate-500">{t("amount")}</dt>
          <dd>{formatMoney(order.amount, order.currency)}</dd>
          <dt className="text-slate-500">{t("since")}</dt>
          <dd>
            <Time value={order.stateAt} />
          </dd>
        </dl>
        <div className="mt-4 border-t border-slate-100 pt-4">
          <h2 className="mb-2 text-sm font-semibold">{t("actions")}</h2>
          {/* Always mounted: an open form outlives the order moving to a state with no actions. */}
          <div className="flex flex-wrap gap-2">
            <EventActions tenant={tenant} orderNo={orderNo} version={order.version} currency={order.currency} events={actions} />
            {canRepair ? <RepairDeliveryButton tenant={tenant} orderNo={orderNo} /> : null}
          </div>
          {actions.length === 0 && !canRepair ? <p className="text-sm text-slate-500">{t("noActions")}</p> : null}
        </div>
      </section>

      {detail.exceptions.length > 0 ? (
        <section className="rounded-lg border border-red-200 bg-red-50 p-5">
          <h2 className="font-semibold text-red-900">{t("exceptions")}</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {detail.exceptions.map((e) => (
              <li key={e.id}>
                <ExceptionKindName kind={e.kind} /> {e.event ? <EventName event={e.event} /> : null}{" "}
                {e.bizKey ? <span className="font-mono text-slate-600">{e.bizKey}</span> : null}{" "}
                {e.amount !== null ? formatMoney(e.amount, order.currency) : ""} · <Time value={e.createdAt} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="grid gap-6 lg:grid-cols-5">
        <div className="rounded-lg border border-slate-200 bg-white p-5 lg:col-span-3">
          <h2 className="mb-2 font-semibold">{t("diagram")}</h2>
          <StateDiagram state={order.state} previous={refundFrom} />
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-5 lg:col-span-2">
          <h2 className="mb-2 font-semibold">{t("next")}</h2>
          <NextEvents state={order.state} />
        </div>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="font-semibold">{t("lines")}</h2>
        <LineProgressList
          lines={detail.lines}
          actionFor={(line) => (canRepair && line.pending > 0 ? <GrantLineButton tenant={tenant} orderNo={orderNo} sku={line.sku} pending={line.pending} /> : null)}
        />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="mb-3 font-semibold">{t("history")}</h2>
        <Timeline transitions={detail.transitions} />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="mb-2 font-semibold">{t("outbox")}</h2>
        {detail.outbox.length === 0 ? (
          <p className="text-sm text-slate-500">{t("noOutbox")}</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="font-medium">{t("outboxTopic")}</th>
                <th className="font-medium">{t("outboxStatus")}</th>
                <th className="font-medium">{t("outboxAttempts")}</th>
                <th className="font-medium">{t("outboxCreated")}</th>
              </tr>
            </thead>
            <tbody>
              {detail.outbox.map((m) => (
                <tr key={m.id}>
                  <td className="font-mono">{m.topic}</td>
                  <td>
                    <OutboxStatusName status={m.status} />
                    {m.lastError ? <span className="ml-1 text-xs text-red-700">({m.lastError})</span> : null}
                  </td>
                  <td className="tabular-nums">{m.attempts}</td>
                  <td>
                    <Time value={m.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
