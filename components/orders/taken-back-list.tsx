import { useTranslations } from "next-intl";
import { Table } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { describeFailure } from "@/lib/cases/describe-case";
import { takeBackFailure } from "@/lib/cases/explain";
import type { Translate } from "@/lib/i18n/describe-problem";
import { isLineKind, takeBackOutcome, type TakeBackOutcome } from "@/lib/orders/take-back";
import type { OrderTakeBack } from "@/lib/read/order-page-facts";

const OUTCOME_TONE: Readonly<Record<TakeBackOutcome, string>> = {
  "taking-back": "bg-amber-50 text-amber-900",
  "taken-back": "bg-emerald-50 text-emerald-900",
  "not-taken-back": "bg-red-50 text-red-800",
  "debt-recorded": "bg-slate-100 text-slate-800",
  "written-off": "bg-slate-100 text-slate-800",
  "giving-back": "bg-amber-50 text-amber-900",
  "given-back": "bg-emerald-50 text-emerald-900",
  "not-given-back": "bg-red-50 text-red-800",
  "debt-cancelled": "bg-slate-100 text-slate-800",
  "write-off-undone": "bg-slate-100 text-slate-800",
};

/** A line's kind in the reader's language; a kind no rule knows stays as stored (it is data). */
export function LineKind({ kind }: { kind: string }) {
  const t = useTranslations("takeBack.kinds");
  return isLineKind(kind) ? <span className="text-xs text-slate-500">{t(kind)}</span> : <span className="font-mono text-xs text-slate-500">{kind}</span>;
}

/**
 * "Goods taken back": the order's take_backs rows, oldest first — what each refund (or its reversal)
 * did under which rule, and where the call to the game stands. One word per row says what happened
 * (takeBackOutcome): a failed revoke is "not taken back", a write-off "written off", never both.
 */
export function TakenBackList({ takeBacks }: { takeBacks: readonly OrderTakeBack[] }) {
  const t = useTranslations("takeBack");
  const all = useTranslations() as unknown as Translate;
  // The worker stores its error in English; the reader gets the words the failure's case uses.
  const failure = (row: OrderTakeBack, lastError: string): string =>
    t(row.units < 0 ? "list.revokeFailure" : "list.grantFailure", { failure: describeFailure(takeBackFailure(lastError)!, all) });
  return (
    <Table
      caption={t("list.caption")}
      testId="taken-back"
      columns={[{ label: t("list.sku") }, { label: t("list.units"), align: "right" }, { label: t("list.rule") }, { label: t("list.status") }, { label: t("list.at") }]}
    >
      <tbody>
        {takeBacks.map((row) => {
          const outcome = takeBackOutcome(row);
          return (
            <tr key={row.id} className="border-b border-slate-100 align-top last:border-0" data-testid={`taken-back-${row.id}`} data-outcome={outcome}>
              <td className="p-3">
                <span className="font-mono">{row.sku}</span> <LineKind kind={row.kind} />
              </td>
              <td className={`whitespace-nowrap p-3 text-right tabular-nums ${row.units < 0 ? "text-red-700" : "text-emerald-700"}`}>
                {row.units > 0 ? `+${row.units}` : row.units}
              </td>
              <td className="p-3">{t(`rules.${row.rule}`)}</td>
              <td className="p-3">
                <span className={`rounded px-1.5 py-0.5 text-xs ${OUTCOME_TONE[outcome]}`}>{t(`outcomes.${outcome}`)}</span>
                {row.status === "pending" && row.attempts > 0 ? <div className="mt-1 text-xs text-slate-600">{t("list.attempts", { count: row.attempts })}</div> : null}
                {row.lastError && (row.status === "failed" || row.status === "pending") ? (
                  <div className="mt-1 break-words text-xs text-red-700">{failure(row, row.lastError)}</div>
                ) : null}
              </td>
              <td className="p-3 text-xs text-slate-700">
                <Time value={row.createdAt} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
