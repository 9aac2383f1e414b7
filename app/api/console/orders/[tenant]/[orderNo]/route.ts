import { z } from "zod";
import { staffRoute } from "@/lib/api/route";
import { requireTenantScope } from "@/lib/auth/scope";
import { AppError } from "@/lib/errors";
import { getPool } from "@/lib/db/pool";

// The order page polls this (cheap: one index lookup) and re-renders when the version moves.
export const GET = staffRoute({ name: "console.order-version", permission: "orders:view", input: z.object({}) }, async ({ staff, params }) => {
  const tenant = String(params.tenant);
  const orderNo = String(params.orderNo);
  await requireTenantScope(staff, tenant, `order:${tenant}/${orderNo}`);
  const { rows } = await getPool().query<{ state: string; version: number }>(
    `SELECT state, version FROM orders WHERE tenant_id = $1 AND order_no = $2`,
    [tenant, orderNo],
  );
  if (!rows[0]) throw new AppError("not-found");
  return rows[0];
});
