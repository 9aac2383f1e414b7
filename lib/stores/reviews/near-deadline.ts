import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { STORES } from "@/lib/orders/store-names";
import { REVIEW_STATUSES } from "./model";
import { NEAR_DEADLINE_MS, reviewState, UNSETTLED_STATUSES } from "./review-state";

/** The overview counts up to here: "200+" says enough, at a bounded cost. */
export const NEAR_DEADLINE_LIMIT = 200;

const nearRow = z.object({
  store: z.enum(STORES),
  status: z.enum(REVIEW_STATUSES),
  deadlineAt: z.coerce.date(),
  lastError: z.string().nullable(),
});

export interface NearDeadline {
  readonly count: number;
  /** More than `count` (the cap). */
  readonly more: boolean;
  /** The soonest deadline among them, to say how little time is left, and the seconds to it. */
  readonly soonest: Date | null;
  readonly soonestSecondsLeft: number | null;
}

/**
 * Refund reviews of the caller's products, of any store, that still await an answer with less than
 * NEAR_DEADLINE_MS left: the overview's warning. The rows come from (tenant_id, status, deadline_at);
 * which of them await an answer is reviewState's word, the same as the list's and the review page's.
 */
export async function reviewsNearDeadline(tenantIds: readonly string[], now = new Date()): Promise<NearDeadline> {
  if (tenantIds.length === 0) return { count: 0, more: false, soonest: null, soonestSecondsLeft: null };
  const found = await rows(
    getPool(),
    nearRow,
    `SELECT store, status, deadline_at AS "deadlineAt", last_error AS "lastError" FROM refund_reviews
     WHERE tenant_id = ANY($1::text[]) AND status = ANY($2::text[]) AND deadline_at > $3 AND deadline_at <= $4
     ORDER BY deadline_at LIMIT $5`,
    [[...new Set(tenantIds)], UNSETTLED_STATUSES, now, new Date(now.getTime() + NEAR_DEADLINE_MS), NEAR_DEADLINE_LIMIT + 1],
  );
  const near = found.filter((r) => reviewState(r, now).nearDeadline);
  const soonest = near[0]?.deadlineAt ?? null;
  return {
    count: Math.min(near.length, NEAR_DEADLINE_LIMIT),
    more: near.length > NEAR_DEADLINE_LIMIT,
    soonest,
    soonestSecondsLeft: soonest ? Math.floor((soonest.getTime() - now.getTime()) / 1000) : null,
  };
}
