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

export function StateBadge({ state }: { state: OrderState }) {
  return <span className={`rounded px-2 py-0.5 font-mono text-xs font-medium ${TONE[state]}`}>{state}</span>;
}
