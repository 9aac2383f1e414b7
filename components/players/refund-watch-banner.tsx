import { Link } from "@/components/ui/link";
import { useFormatter, useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import type { RefundWatch } from "@/lib/players/refund-watch";
import { playerHref } from "@/lib/http/record-pages";

/**
 * The player is on the product's refund watch list: shown on each of their orders (with a link to
 * their page) and on the player page itself.
 */
export function RefundWatchBanner({ watch, tenantId, playerId, linked }: { watch: RefundWatch; tenantId: string; playerId: string; linked: boolean }) {
  const t = useTranslations("refundWatch");
  const format = useFormatter();
  const percent = (fraction: number) => format.number(fraction, { style: "percent", maximumFractionDigits: 1 });
  return (
    <div data-testid="refund-watch">
      <Alert tone="warning">
        <p className="font-medium">{t("title")}</p>
        <p className="mt-1">{t("body", { share: percent(watch.share), currency: watch.currency, threshold: percent(watch.threshold / 100) })}</p>
        {linked ? (
          <Link href={playerHref(tenantId, playerId)} className="mt-1 inline-block underline underline-offset-2">
            {t("openPlayer")}
          </Link>
        ) : null}
      </Alert>
    </div>
  );
}
