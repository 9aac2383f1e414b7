import { useTranslations } from "next-intl";
import { Breakable } from "@/components/ui/breakable";
import { Time } from "@/components/ui/time";
import type { PastBatch } from "@/lib/bulk/batches";
import { ITEM_STATUSES } from "@/lib/bulk/item-status";

const STATUS_TONE = {
  pending: "text-amber-800",
  applied: "text-emerald-800",
  "nothing-to-do": "text-slate-600",
  refused: "text-slate-800",
  failed: "text-red-800",
} as const;

/** The newest batches with their results: what was repaired after which incident, and what is left. */
export function PastBatches({ batches }: { batches: readonly PastBatch[] }) {
  const t = useTranslations("bulk.past");
  const status = useTranslations("bulk.itemStatus");
  return (
    <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="past-batches" data-testid="past-batches">
      <h2 id="past-batches" className="font-semibold">
        {t("title")}
      </h2>
      {batches.length === 0 ? (
        <p className="text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">{t("when")}</th>
                <th scope="col" className="py-1 pr-3 font-medium">{t("batch")}</th>
                <th scope="col" className="py-1 pr-3 font-medium">{t("by")}</th>
                <th scope="col" className="py-1 pr-3 font-medium">{t("reason")}</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">{t("total")}</th>
                <th scope="col" className="py-1 pr-3 font-medium">{t("results")}</th>
                <th scope="col" className="py-1 font-medium">
                  <span className="sr-only">{t("download")}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {batches.map((b) => (
                <tr key={b.batchId} className="align-top" data-testid={`batch-${b.batchId}`}>
                  <td className="py-2 pr-3 text-xs">
                    <Time value={b.createdAt} />
                  </td>
                  <td className="max-w-40 py-2 pr-3 font-mono text-xs">
                    <Breakable text={b.batchId} />
                    <span className="block text-slate-500">{b.tenantId}</span>
                  </td>
                  <td className="py-2 pr-3 font-mono text-xs">
                    <Breakable text={b.createdBy} />
                  </td>
                  <td className="py-2 pr-3">{b.reason}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{b.total}</td>
                  <td className="py-2 pr-3">
                    <ul className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
                      {ITEM_STATUSES.filter((s) => b.counts[s] > 0).map((s) => (
                        <li key={s} className={STATUS_TONE[s]}>
                          {t("count", { status: status(s), count: b.counts[s] })}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="py-2 text-xs">
                    <a className="whitespace-nowrap underline underline-offset-2" href={`/api/console/bulk/${b.batchId}?format=csv`}>
                      {t("download")}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
