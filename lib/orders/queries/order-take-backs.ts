import "server-only";
import { getPrisma } from "@/lib/db/prisma";
import { TAKE_BACK_RULES, type TakeBackRule } from "../take-back";

export const TAKE_BACK_STATUSES = ["pending", "done", "failed", "recorded"] as const;
export type TakeBackStatus = (typeof TAKE_BACK_STATUSES)[number];

/** One take_backs row of an order: what a refund (or a store's reversal of it) did to a line's goods. */
export interface OrderTakeBack {
  readonly id: number;
  readonly sku: string;
  readonly kind: string;
  /** Negative: taken back; positive: given back after the store reversed its refund. */
  readonly units: number;
  readonly rule: TakeBackRule;
  /** pending: the game has not answered the worker's call yet; recorded: nothing to call (a debt, a write-off). */
  readonly status: TakeBackStatus;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const isRule = (v: string): v is TakeBackRule => (TAKE_BACK_RULES as readonly string[]).includes(v);
const isStatus = (v: string): v is TakeBackStatus => (TAKE_BACK_STATUSES as readonly string[]).includes(v);

/**
 * The order's take-backs, oldest first: a range of take_backs' unique (tenant_id, order_id, sku,
 * grant_id) index. The table's checks hold rule and status to these values; a row outside them is
 * a bug, and fails here rather than reaching the page as an unknown word.
 */
export async function orderTakeBacks(tenantId: string, orderId: number): Promise<OrderTakeBack[]> {
  const found = await getPrisma().takeBack.findMany({
    where: { tenantId, orderId: BigInt(orderId) },
    select: { id: true, sku: true, kind: true, units: true, rule: true, status: true, attempts: true, lastError: true, createdAt: true, updatedAt: true },
    orderBy: { id: "asc" },
  });
  return found.map((row) => {
    if (!isRule(row.rule) || !isStatus(row.status)) throw new Error(`take_backs ${row.id}: rule ${row.rule}, status ${row.status}`);
    return { ...row, id: Number(row.id), rule: row.rule, status: row.status };
  });
}
