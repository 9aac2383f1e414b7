import { useTranslations } from "next-intl";
import type { OrderState } from "@/lib/orders/machine";

const TONE: Readonly<Record<OrderState, string>> = {
  created: "bg-slate-100 text-slate-700",
  paid: "bg-blue-100 text-blue-800",
  delivering: "bg-amber-100 text-amber-800",
  delivered: "bg-emerald-100 text-emerald-800",
  refunding: "bg-purple-100 text-purple-800",
  refunded: "bg-zinc-200 text-zinc-800",
  closed: "bg-zinc-200 text-zinc-600",
};

/** The contract name (what every team greps for) with the translated label beside it. */
export function StateBadge({ state }: { state: OrderState }) {
  const t = useTranslations("state");
  return (
    <span className={`inline-flex items-baseline gap-1.5 rounded px-2 py-0.5 text-xs font-medium ${TONE[state]}`}>
      <span className="font-mono">{state}</span>
      <span>{t(state)}</span>
    </span>
  );
}
