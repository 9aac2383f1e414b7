import "server-only";
import { getPrisma } from "@/lib/db/prisma";
import { orderRow } from "@/lib/orders/rows";
import type { OrderSnapshot } from "@/lib/orders/types";

/** One order of a tenant by its number, or null. */
export async function findOrder(tenantId: string, orderNo: string): Promise<OrderSnapshot | null> {
  const row = await getPrisma().order.findUnique({
    where: { tenantId_orderNo: { tenantId, orderNo } },
    select: { id: true, tenantId: true, orderNo: true, playerId: true, amount: true, currency: true, state: true, stateAt: true, version: true },
  });
  return row ? orderRow.parse({ ...row, id: Number(row.id), amount: Number(row.amount) }) : null;
}
