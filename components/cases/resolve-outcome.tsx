import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import type { ResolveCaseOutcome } from "@/app/[locale]/(console)/queues/actions/resolve-case";
import { RepairOutcome } from "@/components/orders/repair-delivery-button";
import { useDescribeProblem } from "@/components/orders/names";
import { Alert } from "@/components/ui/alert";
import { orderHref } from "@/lib/http/record-pages";
import { useMoney } from "./case-text";
import { assertNever } from "@/lib/orders/machine";

/** What a resolution did, in words: the refund asked for, the order made, the grants written, the take-back owed again. */
export function ResolveOutcome({ outcome, tenant }: { outcome: ResolveCaseOutcome; tenant: string }) {
  const t = useTranslations("cases.outcome");
  const describe = useDescribeProblem();
  const money = useMoney();
  const still = (resolved: boolean) => <p className="mt-1">{resolved ? t("resolved") : t("stillPending")}</p>;
  switch (outcome.result) {
    case "duplicate":
      return <Alert>{t("duplicate")}</Alert>;
    case "refund-requested": {
      const values = { refundId: outcome.refundId, amount: money(outcome.amount, outcome.currency) };
      return outcome.webhookSet ? <Alert tone="success">{t("refundRequested", values)}</Alert> : <Alert tone="warning">{t("refundNotSent", values)}</Alert>;
    }
    case "honoured":
      return (
        <Alert tone="success">
          {t("honoured")}{" "}
          <Link href={orderHref(tenant, outcome.orderNo)} className="font-mono underline">
            {outcome.orderNo}
          </Link>
        </Alert>
      );
    case "repaired":
      return (
        <div className="space-y-2">
          <RepairOutcome result={outcome.repair} orderNo="" />
          <Alert tone={outcome.resolved ? "success" : "info"}>{still(outcome.resolved)}</Alert>
        </div>
      );
    case "compensated":
      return (
        <Alert tone={outcome.resolved ? "success" : "info"}>
          <ul className="list-disc pl-5">
            {outcome.grants.map((g) => (
              <li key={g.sku}>
                {g.refusal ? t("grantRefused", { sku: g.sku, quantity: g.quantity, why: describe(g.refusal) }) : t("granted", { sku: g.sku, quantity: g.quantity })}
              </li>
            ))}
          </ul>
          {still(outcome.resolved)}
        </Alert>
      );
    case "retrying":
      return (
        <Alert tone={outcome.endpointSet ? "success" : "warning"}>
          {t("retrying")}
          {outcome.endpointSet ? null : <p className="mt-1">{t("retryingNoEndpoint", { endpoint: outcome.endpoint })}</p>}
        </Alert>
      );
    default:
      return assertNever(outcome);
  }
}
