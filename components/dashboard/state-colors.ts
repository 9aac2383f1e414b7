import type { OrderState } from "@/lib/orders/machine";

/** Chart fills per state, matching the StateBadge tones. */
export const STATE_COLORS: Readonly<Record<OrderState, string>> = {
  created: "#94a3b8",
  paid: "#3b82f6",
  delivering: "#f59e0b",
  delivered: "#10b981",
  refunding: "#a855f7",
  refunded: "#71717a",
  closed: "#a1a1aa",
};
