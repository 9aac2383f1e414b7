import { z } from "zod";
import { staffRoute, type RouteRequest } from "@/lib/api/route";
import { orderTenantScope } from "@/lib/auth/scope";
import { getPool } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { heartbeat, leave } from "@/lib/presence/order-presence";
import { readModelResponse } from "@/lib/read/wire";

const input = z
  .object({
    /** Made by the page when it opens: one row per open tab. */
    tab: z.uuid(),
    /** The version the page (or its oldest open form) stands on: the changes after it are named. */
    since: z.number().int().min(0).max(2_147_483_647),
    /**
     * The request's number in its tab, counting up over its polls and its leave: a poll that arrives
     * after a later leave changes nothing. Absent from pages loaded before requests were numbered.
     */
    seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    /** The tab is being hidden or closed: nobody sees it from now. */
    leaving: z.literal(true).optional(),
  })
  .strict();

// An open order page's one poll (components/orders/live-order.tsx): "I am still here" and "what is
// new" in one POST — it writes the caller's presence row, so it is no GET — answered by one
// statement (lib/presence/order-presence.ts): the order's version, the changes since the page's
// version, and who else has the order open. With `leaving`, the tab's row is marked left instead.
export const POST = staffRoute(
  {
    name: "console.order-presence",
    permission: "orders:view",
    input,
    scope: orderTenantScope(({ params }: RouteRequest<unknown>) => ({ tenant: String(params.tenant), orderNo: String(params.orderNo) })),
  },
  async ({ staff, input: { tab, since, seq, leaving }, resource: { tenantId, orderNo } }) => {
    const call = { tenantId, orderNo, staffId: staff.id, tabId: tab, seq };
    if (leaving) return readModelResponse({ left: await leave(getPool(), call) });
    const live = await heartbeat(getPool(), { ...call, since });
    if (!live) throw new AppError("not-found", { kind: "order-not-found", orderNo });
    return readModelResponse(live);
  },
);
