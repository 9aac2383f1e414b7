import { Link } from "@/components/ui/link";
import { useLocale, useTranslations } from "next-intl";
import { StateBadge } from "@/components/orders/state-badge";
import { PlayerLink } from "@/components/players/player-link";
import { CopyButton } from "@/components/ui/copy-button";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import { formatMoney } from "@/lib/format";
import type { OrderListRow, TenantOption } from "@/lib/orders/queries/search-orders";
import { orderHref } from "@/lib/http/record-pages";
import { Duration, useFormatDuration } from "./orders-duration";

/** One row per order; the order no opens the order page. */
export function OrdersTable({ rows, tenants }: { rows: readonly OrderListRow[]; tenants: readonly TenantOption[] }) {
  const t = useTranslations("orders.table");
  const locale = useLocale();
  const names = new Map(tenants.map((tenant) => [tenant.id, tenant.name]));
  const keys = useListKeys();
  const showMatch = rows.some((r) => r.matchedBy.length > 0);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full border-collapse text-sm" data-testid="orders-table">
        <caption className="sr-only">{t("caption")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            <th scope="col" className="p-3 font-medium">{t("orderNo")}</th>
            <th scope="col" className="p-3 font-medium">{t("tenant")}</th>
            <th scope="col" className="p-3 font-medium">{t("player")}</th>
            <th scope="col" className="p-3 text-right font-medium">{t("amount")}</th>
            <th scope="col" className="p-3 font-medium">{t("state")}</th>
            <th scope="col" className="p-3 font-medium">{t("inState")}</th>
            <th scope="col" className="p-3 font-medium">{t("created")}</th>
          </tr>
        </thead>
        <tbody ref={keys}>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-slate-100 align-top last:border-0" data-testid={`order-row-${row.tenantId}-${row.orderNo}`}>
              <td className="whitespace-nowrap p-3">
                <span className="inline-flex items-center gap-1">
                  <Link href={orderHref(row.tenantId, row.orderNo)} className="font-mono font-medium text-slate-900 underline-offset-2 hover:underline">
                    {row.orderNo}
                  </Link>
                  <CopyButton value={row.orderNo} label={t("copy")} />
                </span>
                {showMatch && row.matchedBy.length > 0 ? (
                  <div className="mt-1 flex flex-wrap gap-1">
                    {row.matchedBy.map((kind) => (
                      <span key={kind} className="rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-800">
                        {t(`matched.${kind}`)}
                      </span>
                    ))}
                  </div>
                ) : null}
              </td>
              <td className="whitespace-nowrap p-3">
                <div>{names.get(row.tenantId) ?? row.tenantId}</div>
                <div className="font-mono text-xs text-slate-500">{row.tenantId}</div>
              </td>
              <td className="whitespace-nowrap p-3">
                <PlayerLink tenantId={row.tenantId} playerId={row.playerId} />
              </td>
              <td className="whitespace-nowrap p-3 text-right tabular-nums">{formatMoney(row.amount, row.currency, locale)}</td>
              <td className="whitespace-nowrap p-3">
                <StateBadge state={row.state} />
              </td>
              <td className="whitespace-nowrap p-3">
                <InState row={row} />
              </td>
              <td className="p-3 text-xs text-slate-700">
                <Time value={row.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Time in state; past the product's threshold it is flagged, with the threshold beside it. */
function InState({ row }: { row: OrderListRow }) {
  const t = useTranslations("orders.table");
  const duration = useFormatDuration();
  if (!row.stuck || row.maxDwellSeconds === null) {
    return (
      <span className="tabular-nums">
        <Duration seconds={row.secondsInState} />
      </span>
    );
  }
  return (
    <span className="text-red-700">
      <span className="font-medium tabular-nums">{duration(row.secondsInState)}</span>{" "}
      <span className="rounded bg-red-50 px-1.5 py-0.5 text-xs">{t("stuck")}</span>
      <span className="block text-xs text-red-600">
        {t("threshold", { limit: duration(row.maxDwellSeconds) })}
      </span>
    </span>
  );
}
