import "server-only";
import { getOrderDetail } from "@/lib/orders/queries/order-detail";
import { lineProgress, type LineProgress } from "@/lib/orders/progress";
import type { OrderHistory } from "@/lib/orders/transit";
import type { OrderSnapshot, TransitionRecord } from "@/lib/orders/types";
import type { OrderView } from "./schemas";

/** The order as the integration API shows it; transitions oldest first. Null when unknown. */
export async function getApiOrder(tenantId: string, orderNo: string): Promise<OrderView | null> {
  const detail = await getOrderDetail(tenantId, orderNo);
  if (!detail) return null;
  return apiOrderView(detail.order, detail.lines, [...detail.transitions].reverse());
}

/** The same view from the history transit() read under its lock (transitWithHistory): no second read. */
export function apiOrderViewOf(order: OrderSnapshot, history: OrderHistory): OrderView {
  return apiOrderView(
    order,
    history.lines.map((l) => ({ ...lineProgress(l, l), kind: l.kind })),
    history.transitions,
  );
}

function apiOrderView(order: OrderSnapshot, lines: readonly (LineProgress & { readonly kind: string })[], transitions: readonly TransitionRecord[]): OrderView {
  return {
    orderNo: order.orderNo,
    state: order.state,
    version: order.version,
    stateAt: order.stateAt.toISOString(),
    amount: order.amount,
    currency: order.currency,
    playerId: order.playerId,
    lines: lines.map((l) => ({ sku: l.sku, kind: l.kind, quantity: l.expected, granted: l.granted, pending: l.pending })),
    transitions: transitions.map((t) => ({
      event: t.event,
      from: t.from,
      to: t.to,
      bizKey: t.bizKey,
      actor: t.actor,
      source: t.source,
      reason: t.reason,
      at: t.at.toISOString(),
    })),
  };
}
