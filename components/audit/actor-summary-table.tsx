import { useTranslations } from "next-intl";
import { Link } from "@/components/ui/link";
import type { ActorSummary } from "@/lib/audit/queries/actor-summary";
import { SUMMARY_DEFAULT_DAYS, SUMMARY_MAX_DAYS } from "@/lib/audit/queries/filter-options";
import { formatUtcMinute } from "@/lib/format";
import { KindBadge } from "./audit-fact";

/** Who did how much, by kind of fact, over the filtered range (`fromFiltered`: the range starts where the filters say). */
export function ActorSummaryTable({ summary, fromFiltered, actorHref }: { summary: ActorSummary; fromFiltered: boolean; actorHref: (actor: string) => string }) {
  const t = useTranslations("audit.summary");
  if (summary.status === "not-applicable") return <p className="text-sm text-slate-500">{t("notApplicable")}</p>;
  const range = t("range", { from: formatUtcMinute(summary.from), to: formatUtcMinute(summary.to) });
  if (summary.status === "too-slow") {
    return (
      <p className="text-sm text-amber-800">
        {range} {t("tooSlow")}
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">
        {range} {summary.clipped ? t("clipped", { days: SUMMARY_MAX_DAYS }) : fromFiltered ? null : t("defaultRange", { days: SUMMARY_DEFAULT_DAYS })}
      </p>
      {summary.rows.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="w-full border-collapse text-sm" data-testid="actor-summary">
            <caption className="sr-only">{t("caption")}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-500">
                <th scope="col" className="p-3 font-medium">{t("actor")}</th>
                <th scope="col" className="p-3 text-right font-medium">{t("orders")}</th>
                <th scope="col" className="p-3 text-right font-medium">{t("facts")}</th>
                <th scope="col" className="p-3 font-medium">{t("byKind")}</th>
              </tr>
            </thead>
            <tbody>
              {summary.rows.map((row) => (
                <tr key={row.actor} className="border-b border-slate-100 align-top last:border-0">
                  <td className="p-3">
                    <Link href={actorHref(row.actor)} className="font-mono text-xs underline-offset-2 hover:underline">
                      {row.actor}
                    </Link>
                  </td>
                  <td className="p-3 text-right font-medium tabular-nums">{row.orders.toLocaleString("en-US")}</td>
                  <td className="p-3 text-right tabular-nums text-slate-600">{row.facts.toLocaleString("en-US")}</td>
                  <td className="p-3">
                    <ul className="flex flex-wrap gap-1.5">
                      {row.parts.map((part) => (
                        <li key={`${part.log}:${part.what}`} className="flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs">
                          <KindBadge kind={part.kind} />
                          <span className="font-mono">{part.what}</span>{" "}
                          <span className="tabular-nums">{t("partCount", { facts: part.facts, orders: part.orders })}</span>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {summary.truncated ? <p className="text-xs text-slate-500">{t("truncated")}</p> : null}
    </div>
  );
}
