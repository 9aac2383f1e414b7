import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { orderScope } from "@/lib/auth/scope";

// The order page polls this (cheap: one index lookup) and re-renders when the version moves.
export const GET = staffRoute(
  {
    name: "console.order-version",
    permission: "orders:view",
    input: z.object({}),
    scope: orderScope(({ params }: RouteRequest<unknown>) => ({ tenant: String(params.tenant), orderNo: String(params.orderNo) })),
  },
  async ({ resource: order }) => ({ state: order.state, version: order.version }),
);
