import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import type { OrderLineDetail } from "@/lib/orders/queries/order-detail";
import { Time } from "@/components/ui/time";
import { SourceName } from "./names";

/** Each line's expected, granted and pending, a progress bar, and the line's ledger rows. */
export function LineProgressList({ lines, actionFor }: { lines: readonly OrderLineDetail[]; actionFor?: (line: OrderLineDetail) => ReactNode }) {
  const t = useTranslations("orderPage");
  return (
    <ul className="divide-y divide-slate-100">
      {lines.map((line) => {
        const share = line.expected === 0 ? 0 : Math.min(100, Math.max(0, (line.granted / line.expected) * 100));
        return (
          <li key={line.sku} className="py-3">
            <div className="flex items-baseline justify-between gap-4 text-sm">
              <span>
                <span className="font-mono">{line.sku}</span> <span className="font-mono text-xs text-slate-500">{line.kind}</span>
              </span>
              <span className="flex items-center gap-2 tabular-nums">
                <span>
                  {t("expected")} {line.expected} · {t("granted")} {line.granted}
                  {line.reversed > 0 ? ` · ${t("reversed")} ${line.reversed}` : ""} ·{" "}
                  <span className={line.pending > 0 ? "font-semibold text-amber-700" : ""}>
                    {t("pending")} {line.pending}
                  </span>
                </span>
                {actionFor?.(line)}
              </span>
            </div>
            <div
              className="mt-2 h-2 overflow-hidden rounded bg-slate-100"
              role="progressbar"
              aria-label={t("lineDelivered", { sku: line.sku })}
              aria-valuemin={0}
              aria-valuemax={line.expected}
              aria-valuenow={Math.max(0, line.granted)}
            >
              <div className="h-full bg-emerald-500" style={{ width: `${share}%` }} />
            </div>
            {line.grants.length > 0 ? (
              <table className="mt-2 w-full text-xs text-slate-600">
                <tbody>
                  {line.grants.map((g) => (
                    <tr key={g.id}>
                      <td className="py-0.5 font-mono">{g.grantId}</td>
                      <td className={`tabular-nums ${g.quantity < 0 ? "text-red-700" : ""}`}>{g.quantity > 0 ? `+${g.quantity}` : g.quantity}</td>
                      <td>
                        <SourceName source={g.source} />
                      </td>
                      <td>{g.actor}</td>
                      <td>
                        <Time value={g.at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
