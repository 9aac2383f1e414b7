"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { requireTenantScope } from "@/lib/auth/scope";
import { completeDelivery } from "@/lib/orders/complete-delivery";
import { MIN_REASON_LENGTH } from "@/lib/orders/console-event";

const input = z.object({
  tenant: z.string().min(1),
  orderNo: z.string().min(1),
  reason: z.string().trim().min(MIN_REASON_LENGTH, `Give a reason of at least ${MIN_REASON_LENGTH} characters.`).max(500),
});

/** Repair delivery (ops): begin if needed, grant every pending line, confirm — rerunnable, never doubled. */
export const repairDelivery = defineAction({ name: "orders.repair-delivery", permission: "orders:grant", input }, async (v, { staff, actor }) => {
  await requireTenantScope(staff, v.tenant, `order:${v.tenant}/${v.orderNo}`);
  const result = await completeDelivery({ tenantId: v.tenant, orderNo: v.orderNo, actor, source: "console", reason: v.reason, keyPrefix: "repair" });
  return result;
});
