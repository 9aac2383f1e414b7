import { Link } from "@/components/ui/link";
import { useLocale, useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";
import { Time } from "@/components/ui/time";
import { useListKeys } from "@/components/ui/keyboard";
import { formatMoney } from "@/lib/format";
import type { StuckOrder } from "@/lib/read/queues";
import { orderHref } from "@/lib/http/record-pages";
import { useFormatDuration } from "./orders-duration";

// Rendered inside the live queues (a client component), so nothing here may touch the server.

const TH = "p-3 font-medium";

/** Oldest first: the order that has waited longest is the first row. */
export function QueueStuckTable({ items, testId }: { items: readonly StuckOrder[]; testId: string }) {
  const t = useTranslations("queues.table");
  const keys = useListKeys();
  const locale = useLocale();
  const duration = useFormatDuration();
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full border-collapse text-sm" data-testid={testId}>
        <caption className="sr-only">{t("stuckCaption")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            <th scope="col" className={TH}>{t("orderNo")}</th>
            <th scope="col" className={TH}>{t("tenant")}</th>
            <th scope="col" className={TH}>{t("player")}</th>
            <th scope="col" className={`${TH} text-right`}>{t("amount")}</th>
            <th scope="col" className={TH}>{t("inState")}</th>
            <th scope="col" className={TH}>{t("since")}</th>
          </tr>
        </thead>
        <tbody ref={keys}>
          {items.map((o) => (
            <tr key={o.id} className="border-b border-slate-100 align-top last:border-0" data-testid={`queue-row-${o.tenantId}-${o.orderNo}`}>
              <td className="whitespace-nowrap p-3">
                <span className="inline-flex items-center gap-1">
                  <Link href={orderHref(o.tenantId, o.orderNo)} className="font-mono font-medium underline-offset-2 hover:underline">
                    {o.orderNo}
                  </Link>
                  <CopyButton value={o.orderNo} label={t("copy")} />
                </span>
              </td>
              <td className="p-3 font-mono text-xs">{o.tenantId}</td>
              <td className="whitespace-nowrap p-3">
                <span className="inline-flex items-center gap-1">
                  <span className="font-mono">{o.playerId}</span>
                  <CopyButton value={o.playerId} label={t("copy")} />
                </span>
              </td>
              <td className="whitespace-nowrap p-3 text-right tabular-nums">{formatMoney(o.amount, o.currency, locale)}</td>
              <td className="whitespace-nowrap p-3">
                <span className="font-medium text-red-700 tabular-nums">{duration(o.secondsInState)}</span>
                <span className="block text-xs text-slate-500">{t("threshold", { limit: duration(o.maxDwellSeconds) })}</span>
              </td>
              <td className="p-3 text-xs text-slate-700">
                <Time value={o.stateAt} secondsAgo={o.secondsInState} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
