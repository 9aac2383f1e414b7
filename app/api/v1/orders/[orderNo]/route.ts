import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, pathOrder } from "@/lib/api/route";
import { getApiOrder } from "@/lib/orders/queries/api-order";

export const GET = apiRoute({ name: "v1.orders.get", input: z.object({}) }, async ({ caller, params }) => {
  const order = await pathOrder(caller, params);
  return NextResponse.json({ order: await getApiOrder(caller.tenantId, order.orderNo) });
});
