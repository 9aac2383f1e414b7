import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LineProgressList } from "@/components/orders/line-progress";
import { StateBadge } from "@/components/orders/state-badge";
import { Timeline } from "@/components/orders/timeline";
import { Time } from "@/components/ui/time";
import { requireStaff } from "@/lib/auth/page";
import { requireTenantScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { formatMoney } from "@/lib/format";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";

type Props = { params: Promise<{ tenant: string; orderNo: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orderNo } = await params;
  return { title: `Order ${decodeURIComponent(orderNo)}` };
}

export default async function OrderPage({ params }: Props) {
  const staff = await requireStaff("orders:view");
  const { tenant, orderNo: rawOrderNo } = await params;
  const orderNo = decodeURIComponent(rawOrderNo);
  try {
    await requireTenantScope(staff, tenant, `order:${tenant}/${orderNo}`);
  } catch (error) {
    if (error instanceof AppError && error.code === "not-found") notFound();
    throw error;
  }
  const detail = await getOrderDetail(tenant, orderNo);
  if (!detail) notFound();
  const { order } = detail;

  return (
    <div className="space-y-6">
      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="font-mono text-xl font-semibold">{order.orderNo}</h1>
          <StateBadge state={order.state} />
          <span className="text-sm text-slate-500">version {order.version}</span>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-slate-500">Product</dt>
          <dd className="font-mono">{order.tenantId}</dd>
          <dt className="text-slate-500">Player</dt>
          <dd className="font-mono">{order.playerId}</dd>
          <dt className="text-slate-500">Amount</dt>
          <dd>{formatMoney(order.amount, order.currency)}</dd>
          <dt className="text-slate-500">In this state since</dt>
          <dd>
            <Time value={order.stateAt} />
          </dd>
        </dl>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="font-semibold">Delivery by line</h2>
        <LineProgressList lines={detail.lines} />
      </section>

      {detail.exceptions.length > 0 ? (
        <section className="rounded-lg border border-red-200 bg-red-50 p-5">
          <h2 className="font-semibold text-red-900">Open exceptions</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {detail.exceptions.map((e) => (
              <li key={e.id}>
                <span className="font-mono">{e.kind}</span> {e.event ? `on ${e.event}` : ""}{" "}
                {e.amount !== null ? formatMoney(e.amount, order.currency) : ""} <Time value={e.createdAt} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="mb-3 font-semibold">History</h2>
        <Timeline transitions={detail.transitions} />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="mb-2 font-semibold">Outbox messages</h2>
        {detail.outbox.length === 0 ? (
          <p className="text-sm text-slate-500">No messages for this order.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="font-medium">Topic</th>
                <th className="font-medium">Status</th>
                <th className="font-medium">Attempts</th>
                <th className="font-medium">Created</th>
              </tr>
            </thead>
            <tbody>
              {detail.outbox.map((m) => (
                <tr key={m.id}>
                  <td className="font-mono">{m.topic}</td>
                  <td>{m.status}</td>
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
