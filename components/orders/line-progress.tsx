import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import type { OrderLineDetail } from "@/lib/orders/queries/order-detail";
import type { OrderTakeBack } from "@/lib/read/order-page-facts";
import { lineTakeBackSummary } from "@/lib/orders/take-back";
import { Time } from "@/components/ui/time";
import { SourceName } from "./names";
import { LineKind } from "./taken-back-list";

/**
 * Each line's expected, granted and pending, a progress bar, and the line's ledger rows. What a
 * refund did to the line's goods is said per outcome of its take-backs (taken back, not taken back,
 * written off, owed), not as one "reversed" that a failed call or a write-off would contradict.
 */
export function LineProgressList({
  lines,
  takeBacks = [],
  actionFor,
}: {
  lines: readonly OrderLineDetail[];
  takeBacks?: readonly OrderTakeBack[];
  actionFor?: (line: OrderLineDetail) => ReactNode;
}) {
  const t = useTranslations("orderPage");
  const outcomes = useTranslations("takeBack.lineOutcomes");
  return (
    <ul className="divide-y divide-slate-100">
      {lines.map((line) => {
        const share = line.expected === 0 ? 0 : Math.min(100, Math.max(0, (line.granted / line.expected) * 100));
        const summary = lineTakeBackSummary(
          line.reversed,
          takeBacks.filter((k) => k.sku === line.sku),
        );
        const refundWords = [
          ...summary.outcomes.map((o) => outcomes(o.outcome, { units: o.units })),
          ...(summary.unexplained > 0 ? [`${t("reversed")} ${summary.unexplained}`] : []),
        ];
        return (
          <li key={line.sku} className="py-3">
            <div className="flex items-baseline justify-between gap-4 text-sm">
              <span>
                <span className="font-mono">{line.sku}</span> <LineKind kind={line.kind} />
              </span>
              <span className="flex items-center gap-2 tabular-nums">
                <span>
                  {t("expected")} {line.expected} · {t("granted")} {line.granted}
                  {refundWords.length > 0 ? <span data-testid={`line-take-back-${line.sku}`}>{refundWords.map((words) => ` · ${words}`).join("")}</span> : null} ·{" "}
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
