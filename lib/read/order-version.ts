import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne, prepared } from "@/lib/db/sql";

/** What an open order page polls: whether its read model is still current. */
export interface OrderVersion {
  readonly state: string;
  readonly version: number;
}

const versionRow = z.object({ state: z.string(), version: z.number() });

/** Every open order page asks every few seconds: prepared, one index lookup on (tenant_id, order_no). */
const ORDER_VERSION = prepared("read.order-version", `SELECT state, version FROM orders WHERE tenant_id = $1 AND order_no = $2`);

/** The order's state and version, or null when there is no such order. */
export function readOrderVersion(tenantId: string, orderNo: string): Promise<OrderVersion | null> {
  return maybeOne(getPool(), versionRow, ORDER_VERSION, [tenantId, orderNo]);
}
