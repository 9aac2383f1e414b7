import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Time } from "@/components/ui/time";
import type { AuditRow } from "@/lib/audit/queries/audit-rows";
import { formatMoney } from "@/lib/format";

function orderHref(tenant: string, orderNo: string): string {
  return `/orders/${encodeURIComponent(tenant)}/${encodeURIComponent(orderNo)}`;
}

/** A staff action's target, as a link when it names an order ("order:tenant/orderNo"). */
function Target({ target }: { target: string | null }) {
  if (!target) return <span className="text-slate-400">—</span>;
  const order = /^order:([^/]+)\/(.+)$/.exec(target);
  if (order) {
    return (
      <Link href={orderHref(order[1]!, order[2]!)} className="font-mono underline-offset-2 hover:underline">
        {order[2]}
      </Link>
    );
  }
  return <span className="font-mono text-xs text-slate-600">{target}</span>;
}

/** Before → after for a change, or the detail as compact key: value pairs. */
function Detail({ detail }: { detail: Readonly<Record<string, unknown>> }) {
  // Money is stored in minor units; the settings audit row carries its currency.
  const currency = detail.field === "refund_approval_amount" && typeof detail.currency === "string" ? detail.currency : null;
  const show = (v: unknown) => (currency && typeof v === "number" ? formatMoney(v, currency) : typeof v === "string" ? v : JSON.stringify(v));
  if ("before" in detail && "after" in detail) {
    return (
      <span className="font-mono text-xs">
        {typeof detail.field === "string" ? <span className="text-slate-500">{detail.field}: </span> : null}
        <span className="text-red-700 line-through decoration-red-300">{show(detail.before)}</span> →{" "}
        <span className="text-emerald-800">{show(detail.after)}</span>
      </span>
    );
  }
  const text = Object.entries(detail)
    .filter(([k]) => k !== "reason" && k !== "currency")
    .map(([k, v]) => `${k}: ${show(v)}`)
    .join(" · ");
  return text ? <span className="font-mono text-xs text-slate-600">{text.length > 160 ? `${text.slice(0, 159)}…` : text}</span> : null;
}

export async function AuditTable({ rows, actorHref }: { rows: readonly AuditRow[]; actorHref: (actor: string) => string }) {
  const t = await getTranslations("audit.table");
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full border-collapse text-sm" data-testid="audit-table">
        <caption className="sr-only">{t("caption")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            <th scope="col" className="p-3 font-medium">{t("when")}</th>
            <th scope="col" className="p-3 font-medium">{t("tenant")}</th>
            <th scope="col" className="p-3 font-medium">{t("order")}</th>
            <th scope="col" className="p-3 font-medium">{t("what")}</th>
            <th scope="col" className="p-3 font-medium">{t("who")}</th>
            <th scope="col" className="p-3 font-medium">{t("reason")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.cursor} className="border-b border-slate-100 align-top last:border-0" data-kind={row.kind}>
              <td className="whitespace-nowrap p-3 text-xs">
                <Time value={row.at} />
              </td>
              <td className="p-3 font-mono text-xs">{row.tenantId}</td>
              <td className="p-3">
                {row.kind === "transition" ? (
                  row.orderNo ? (
                    <Link href={orderHref(row.tenantId, row.orderNo)} className="font-mono underline-offset-2 hover:underline">
                      {row.orderNo}
                    </Link>
                  ) : (
                    <span className="font-mono text-slate-500">#{row.orderId}</span>
                  )
                ) : (
                  <Target target={row.target} />
                )}
              </td>
              <td className="p-3">
                {row.kind === "transition" ? (
                  <>
                    <span className="font-mono font-semibold">{row.event}</span>
                    <div className="font-mono text-xs text-slate-600">
                      {row.from} → {row.to}
                    </div>
                    {row.bizKey ? <div className="font-mono text-xs text-slate-400">bizKey {row.bizKey}</div> : null}
                  </>
                ) : (
                  <>
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-semibold">{row.action}</span>
                    <div className="mt-1">
                      <Detail detail={row.detail} />
                    </div>
                  </>
                )}
              </td>
              <td className="p-3">
                <Link href={actorHref(row.actor)} className="font-mono text-xs underline-offset-2 hover:underline" title={t("filterActor")}>
                  {row.actor}
                </Link>
                <div className="text-xs text-slate-500">{row.kind === "transition" ? row.source : t("staffAction")}</div>
              </td>
              <td className="max-w-xs p-3 text-slate-800">{row.reason ? <span className="whitespace-pre-wrap break-words">{row.reason}</span> : <span className="text-slate-400">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
