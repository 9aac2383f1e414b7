"use server";

import { z } from "zod";
import { defineAction } from "@/lib/auth/action";
import { orderScope } from "@/lib/auth/scope";
import { reasonInput } from "@/lib/orders/console-event";
import { repairDelivery as repair } from "@/lib/orders/repair-delivery";

const input = z.object({ tenant: z.string().min(1), orderNo: z.string().min(1), reason: reasonInput });

/** Repair delivery (ops): begin if needed, grant every pending line, confirm — rerunnable, never doubled. */
export const repairDelivery = defineAction(
  { name: "orders.repair-delivery", permission: "orders:grant", input, scope: orderScope((v: z.output<typeof input>) => v) },
  async (v, { actor, resource: order }) =>
    repair({ tenantId: order.tenantId, orderNo: order.orderNo, actor, source: "console", reason: v.reason, keyPrefix: "repair" }),
);
