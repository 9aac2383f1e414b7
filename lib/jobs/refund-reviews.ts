import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { AUTO_SEND_LEAD_MS, REVIEW_SYSTEM_ACTOR } from "@/lib/stores/reviews/model";
import { expire, sendReviewAnswer } from "@/lib/stores/reviews/send-answer";

export interface RefundReviewReport {
  /** Reviews whose deadline passed unanswered, now expired. */
  readonly expired: number;
  /** Answers the worker queued for tenants that opted in. */
  readonly answered: number;
}

const BATCH = 100;
const dueRow = z.object({ id: z.number(), tenantId: z.string(), orderId: z.number().nullable(), store: z.string(), transactionId: z.string() });

/**
 * The refund review queue's clock. Reviews past their deadline with no answer on its way are
 * expired (an answer in the outbox is expired by the relay, which never sends it late). For tenants
 * that opted in (tenant_settings.refund_review_auto_send), open reviews with less than an hour left
 * are answered from the ledger as the system, through the same send as an agent's — its row lock
 * makes a worker racing an agent, or another worker, one answer. Only the App Store's: Google Play
 * takes no answer through an API.
 */
export async function runRefundReviews(options: { readonly pool?: pg.Pool; readonly now?: Date } = {}): Promise<RefundReviewReport> {
  const pool = options.pool ?? getPool();
  const now = options.now ?? new Date();
  const expired = await transaction(
    async (tx: PrismaTransaction) => {
      const due = await rows(
        tx.client,
        dueRow,
        `SELECT id::int AS id, tenant_id AS "tenantId", order_id::int AS "orderId", store, transaction_id AS "transactionId" FROM refund_reviews
         WHERE status IN ('open', 'failed') AND deadline_at <= $1 ORDER BY deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, BATCH],
      );
      for (const review of due) await expire(tx, review);
      return due.length;
    },
    { pool, prisma: true },
  );
  const toAnswer = await rows(
    pool,
    z.object({ id: z.number() }),
    `SELECT r.id::int AS id FROM refund_reviews r JOIN tenant_settings s ON s.tenant_id = r.tenant_id
     WHERE s.refund_review_auto_send AND r.store = 'appstore' AND r.status = 'open' AND r.deadline_at > $1 AND r.deadline_at <= $2
     ORDER BY r.deadline_at LIMIT $3`,
    [now, new Date(now.getTime() + AUTO_SEND_LEAD_MS), BATCH],
  );
  let answered = 0;
  for (const { id } of toAnswer) {
    // Opting in is the tenant's word that its app asks players for consent (the settings page says so).
    const sent = await sendReviewAnswer({ reviewId: id, actor: REVIEW_SYSTEM_ACTOR, customerConsented: true, now });
    if (sent.result === "queued") answered++;
  }
  return { expired, answered };
}
