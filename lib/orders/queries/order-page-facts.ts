import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne } from "@/lib/db/sql";
import { storedCannedReasons, type CannedReasons } from "@/lib/settings/canned-reasons";
import { dwellThresholds, type DwellThresholds } from "../stuck";

/** What the order page shows beside the order's own rows: its product's name and settings, its age. */
export interface OrderPageFacts {
  readonly tenantName: string;
  readonly createdAt: Date;
  /** By the database's clock, like the orders list's "in state" column. */
  readonly secondsInState: number;
  readonly thresholds: DwellThresholds;
  readonly cannedReasons: CannedReasons;
}

const factsRow = z.object({
  tenantName: z.string(),
  createdAt: z.coerce.date(),
  secondsInState: z.number(),
  thresholds: dwellThresholds,
  cannedReasons: storedCannedReasons,
});

/** One primary-key lookup per table (orders by (tenant_id, order_no), tenants, tenant_settings). */
export async function getOrderPageFacts(tenantId: string, orderNo: string): Promise<OrderPageFacts | null> {
  return maybeOne(
    getPool(),
    factsRow,
    `SELECT t.name AS "tenantName", o.created_at AS "createdAt",
            floor(extract(epoch FROM now() - o.state_at))::int AS "secondsInState",
            coalesce(s.max_dwell_seconds, '{}') AS thresholds, coalesce(s.canned_reasons, '{}') AS "cannedReasons"
     FROM orders o JOIN tenants t ON t.id = o.tenant_id LEFT JOIN tenant_settings s ON s.tenant_id = o.tenant_id
     WHERE o.tenant_id = $1 AND o.order_no = $2`,
    [tenantId, orderNo],
  );
}
