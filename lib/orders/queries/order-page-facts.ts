import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { maybeOne } from "@/lib/db/sql";
import { playerMoneySql } from "@/lib/players/queries/player-summary";
import { refundWatch, type RefundWatch } from "@/lib/players/refund-watch";
import { storedCannedReasons, type CannedReasons } from "@/lib/settings/canned-reasons";
import { dwellThresholds, type DwellThresholds } from "../stuck";
import { storedTakeBackRules, type TakeBackRules } from "../take-back";

/** What the order page shows beside the order's own rows: its product's name and settings, its age. */
export interface OrderPageFacts {
  readonly tenantName: string;
  readonly createdAt: Date;
  /** By the database's clock, like the orders list's "in state" column. */
  readonly secondsInState: number;
  readonly thresholds: DwellThresholds;
  readonly cannedReasons: CannedReasons;
  /** Why the order's player is on the tenant's refund watch list; null when not (or the tenant keeps none). */
  readonly refundWatch: RefundWatch | null;
  /** What a confirmed refund would do to each kind of line's goods: the refund preview. */
  readonly takeBackRules: TakeBackRules;
  /** Whether the tenant has set where `revoke` calls go: without it, they fail. */
  readonly revokeEndpointSet: boolean;
}

const factsRow = z.object({
  tenantName: z.string(),
  createdAt: z.coerce.date(),
  secondsInState: z.number(),
  thresholds: dwellThresholds,
  cannedReasons: storedCannedReasons,
  refundWatchPercent: z.number().nullable(),
  takeBackRules: storedTakeBackRules,
  revokeEndpointSet: z.boolean(),
  playerMoney: z.array(z.object({ currency: z.string(), paid: z.number(), refunded: z.number() })),
});

/**
 * One primary-key lookup per table (orders by (tenant_id, order_no), tenants, tenant_settings); when
 * the tenant keeps a refund watch list, also the player's money — a range of the player's orders
 * (tenant_id, player_id, created_at), with index lookups per order — in the same statement.
 */
export async function getOrderPageFacts(tenantId: string, orderNo: string): Promise<OrderPageFacts | null> {
  const row = await maybeOne(
    getPool(),
    factsRow,
    `SELECT t.name AS "tenantName", o.created_at AS "createdAt",
            floor(extract(epoch FROM now() - o.state_at))::int AS "secondsInState",
            coalesce(s.max_dwell_seconds, '{}') AS thresholds, coalesce(s.canned_reasons, '{}') AS "cannedReasons",
            s.refund_watch_percent AS "refundWatchPercent",
            coalesce(s.take_back_rules, '{}') AS "takeBackRules", s.revoke_endpoint_url IS NOT NULL AS "revokeEndpointSet",
            (SELECT coalesce(json_agg(json_build_object('currency', m.currency, 'paid', m.paid, 'refunded', m.refunded)), '[]')
             FROM (${playerMoneySql("o.tenant_id", "o.player_id")}) m WHERE s.refund_watch_percent IS NOT NULL) AS "playerMoney"
     FROM orders o JOIN tenants t ON t.id = o.tenant_id LEFT JOIN tenant_settings s ON s.tenant_id = o.tenant_id
     WHERE o.tenant_id = $1 AND o.order_no = $2`,
    [tenantId, orderNo],
  );
  if (!row) return null;
  const { refundWatchPercent, playerMoney, ...facts } = row;
  return { ...facts, refundWatch: refundWatch(refundWatchPercent, playerMoney) };
}
