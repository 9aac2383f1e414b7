import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute } from "@/lib/api/route";
import { notFound } from "@/lib/api/v1/respond";
import { getApiOrder } from "@/lib/orders/queries/api-order";

export const GET = apiRoute({ name: "v1.orders.get", input: z.object({}) }, async ({ caller, params }) => {
  const orderNo = String(params.orderNo);
  const order = await getApiOrder(caller.tenantId, orderNo);
  return order ? NextResponse.json({ order }) : notFound(orderNo);
});
