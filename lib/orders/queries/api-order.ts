import "server-only";
import type { OrderView } from "@/lib/api/v1/schemas";
import { getOrderDetail } from "./order-detail";

/** The order as the integration API shows it; transitions oldest first. Null when unknown. */
export async function getApiOrder(tenantId: string, orderNo: string): Promise<OrderView | null> {
  const detail = await getOrderDetail(tenantId, orderNo);
  if (!detail) return null;
  const { order } = detail;
  return {
    orderNo: order.orderNo,
    state: order.state,
    version: order.version,
    stateAt: order.stateAt.toISOString(),
    amount: order.amount,
    currency: order.currency,
    playerId: order.playerId,
    lines: detail.lines.map((l) => ({ sku: l.sku, kind: l.kind, quantity: l.expected, granted: l.granted, pending: l.pending })),
    transitions: [...detail.transitions].reverse().map((t) => ({
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
