import { useTranslations } from "next-intl";
import { Link } from "@/components/ui/link";
import type { NotSentWhy } from "@/lib/cases/refund-reach";
import type { UnsentRefunds } from "@/lib/cases/queries/unsent-refunds";

const CARD = "block rounded-lg border border-red-200 bg-white p-4 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
const WHYS: readonly NotSentWhy["kind"][] = ["no-webhook", "gave-up", "no-message"];

/**
 * The overview's word on channel refunds that never left (issue 29): how many, per product, and
 * why — judged by the rule the case and the queue use (lib/cases/refund-reach.ts). Shown only when
 * there is one: nothing to say otherwise.
 */
export function UnsentRefundsCard({ unsent }: { unsent: readonly UnsentRefunds[] }) {
  const t = useTranslations("cases.overview");
  const total = unsent.reduce((n, u) => n + u.count, 0);
  if (total === 0) return null;
  return (
    <Link href="/queues#cases" className={CARD} data-testid="overview-unsent-refunds">
      <span className="block text-sm text-slate-600">{t("unsentCard")}</span>
      <span className="mt-1 block text-2xl font-semibold tabular-nums text-red-700">{total.toLocaleString("en-US")}</span>
      <span className="mt-1 block space-y-0.5 text-xs text-slate-700">
        {unsent.flatMap((u) =>
          WHYS.filter((why) => (u.why[why] ?? 0) > 0).map((why) => (
            <span key={`${u.tenantId}:${why}`} className="block" data-testid={`overview-unsent-${u.tenantId}-${why}`}>
              {t("unsentLine", { product: u.tenantId, count: u.why[why] ?? 0, why: t(`unsentWhy.${why}`) })}
            </span>
          )),
        )}
      </span>
      <span className="mt-1 block text-xs text-slate-500">{t("unsentHint")}</span>
    </Link>
  );
}
