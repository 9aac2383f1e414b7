import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { orderTenantScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { readOrderPage } from "@/lib/read/order-page";
import { readModelResponse } from "@/lib/read/wire";

// The order page's data (lib/read/order-page.ts). The scope rule admits the order's tenant without
// reading the order; the read model reads it once, in its snapshot. Missing and out of scope look alike.
export const GET = staffRoute(
  {
    name: "console.order-page",
    permission: "orders:view",
    input: z.object({}),
    scope: orderTenantScope(({ params }: RouteRequest<unknown>) => ({ tenant: String(params.tenant), orderNo: String(params.orderNo) })),
  },
  async ({ staff, resource: { tenantId, orderNo } }) => {
    const model = await readOrderPage(staff, tenantId, orderNo);
    if (!model) throw new AppError("not-found", { kind: "order-not-found", orderNo });
    return readModelResponse(model);
  },
);
