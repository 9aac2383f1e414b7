import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { orderTenantScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { readOrderVersion } from "@/lib/read/order-version";
import { readModelResponse } from "@/lib/read/wire";

// What an open order page polls (components/orders/live-order.tsx): the order's version, in one
// prepared index lookup; the page reads its whole read model again only when the version moved.
export const GET = staffRoute(
  {
    name: "console.order-version",
    permission: "orders:view",
    input: z.object({}),
    scope: orderTenantScope(({ params }: RouteRequest<unknown>) => ({ tenant: String(params.tenant), orderNo: String(params.orderNo) })),
  },
  async ({ resource: { tenantId, orderNo } }) => {
    const version = await readOrderVersion(tenantId, orderNo);
    if (!version) throw new AppError("not-found", { kind: "order-not-found", orderNo });
    return readModelResponse(version);
  },
);
