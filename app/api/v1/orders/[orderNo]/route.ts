import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute } from "@/lib/api/route";
import { AppError } from "@/lib/errors";
import { getApiOrder } from "@/lib/api/v1/api-order";

export const GET = apiRoute({ name: "v1.orders.get", input: z.object({}) }, async ({ caller, params }) => {
  // One read: the view itself says whether the key's tenant has the order.
  const orderNo = String(params.orderNo);
  const order = await getApiOrder(caller.tenantId, orderNo);
  if (!order) throw new AppError("not-found", { kind: "order-not-found", orderNo });
  return NextResponse.json({ order });
});
