import { useTranslations } from "next-intl";
import type { OutboxDelivery } from "@/lib/outbox/delivery-status";

const TONE: Readonly<Record<OutboxDelivery, string>> = {
  queued: "bg-slate-100 text-slate-800",
  retrying: "bg-amber-100 text-amber-900",
  delivered: "bg-emerald-100 text-emerald-900",
  dead: "bg-red-100 text-red-900",
  "no-webhook": "bg-stone-100 text-stone-800",
};

/** A delivery's status as the read model derived it (lib/outbox/delivery-status.ts), in words. */
export function DeliveryStatusBadge({ delivery }: { delivery: OutboxDelivery }) {
  const t = useTranslations("deliveries.status");
  return (
    <span className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${TONE[delivery]}`} data-testid="delivery-status" data-status={delivery}>
      {t(delivery)}
    </span>
  );
}
