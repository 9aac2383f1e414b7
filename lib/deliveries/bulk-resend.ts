import "server-only";
import { z } from "zod";
import { runChunk, startBatch, type ItemDetail } from "@/lib/bulk/batches";
import type { ItemStatus } from "@/lib/bulk/item-status";
import { getPool } from "@/lib/db/pool";
import { rows, type Queryable } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { REVIEW_ANSWER_TOPIC } from "@/lib/outbox/answer-topic";
import { resendMessage, type ResendResult } from "./resend";
import { MAX_RESEND_BATCH } from "./resend-limit";

// Bulk resend (issue 27, item 2): every dead webhook message of one product since a time, sent again
// as a bulk batch (lib/bulk/batches.ts: a batch row and its items, claimed in chunks by any number of
// runners). Each item goes through the single resend's rule (resend.ts: the row lock, the audit
// fact, the request key) with the request key `bulk:<batch id>:<message id>`, so a runner that
// crashed after a resend, or two runners racing for one item, resend it once. A message that is no
// longer dead when its turn comes (someone resent it, the relay has it) is skipped and counted.

/** Messages shown in the preview. */
export const RESEND_SAMPLE_SIZE = 10;

export interface ResendSelection {
  readonly tenantId: string;
  readonly since: Date;
}

export interface ResendPreviewRow {
  readonly id: number;
  readonly topic: string;
  readonly orderNo: string | null;
  readonly createdAt: Date;
  readonly lastError: string | null;
}

export interface ResendPreview {
  readonly count: number;
  /** The oldest few, in the order the batch resends them. */
  readonly sample: readonly ResendPreviewRow[];
}

// Dead webhook messages of the product since the time, oldest first: the (tenant_id, status,
// created_at, id) index's range. A refund review's answer goes to a store's API, not the webhook.
const DEAD_SINCE = `FROM outbox_messages m WHERE m.tenant_id = $1 AND m.status = 'dead' AND m.created_at >= $2 AND m.topic <> $3`;

const sampleRow = z.object({ id: z.number(), topic: z.string(), orderNo: z.string().nullable(), createdAt: z.coerce.date(), lastError: z.string().nullable() });
const countRow = z.object({ count: z.number() });
const idRow = z.object({ id: z.string() });

/** What a bulk resend of the selection would send now. Writes nothing. */
export async function previewResend(selection: ResendSelection, db: Queryable = getPool()): Promise<ResendPreview> {
  const values = [selection.tenantId, selection.since, REVIEW_ANSWER_TOPIC];
  const [counted, sample] = await Promise.all([
    rows(db, countRow, `SELECT count(*)::int AS count ${DEAD_SINCE}`, values),
    rows(
      db,
      sampleRow,
      `SELECT m.id::int AS id, m.topic, o.order_no AS "orderNo", m.created_at AS "createdAt", m.last_error AS "lastError"
       FROM (SELECT m.id, m.topic, m.order_id, m.created_at, m.last_error ${DEAD_SINCE} ORDER BY m.created_at, m.id LIMIT ${RESEND_SAMPLE_SIZE}) m
       LEFT JOIN orders o ON o.id = m.order_id
       ORDER BY m.created_at, m.id`,
      values,
    ),
  ]);
  return { count: counted[0]?.count ?? 0, sample };
}

/**
 * Starts the batch: the dead messages of the selection as they are now become its items (the same
 * batch id again, a double click or a second web process, makes no second batch and retries only
 * what failed). Refused when there is nothing to send or more than MAX_RESEND_BATCH.
 */
export async function startResendBatch(input: ResendSelection & { batchId: string; reason: string; actor: string }): Promise<void> {
  const ids = await rows(getPool(), idRow, `SELECT m.id::text AS id ${DEAD_SINCE} ORDER BY m.created_at, m.id LIMIT ${MAX_RESEND_BATCH + 1}`, [
    input.tenantId,
    input.since,
    REVIEW_ANSWER_TOPIC,
  ]);
  if (ids.length > MAX_RESEND_BATCH) throw new AppError("invalid-input", { kind: "resend-too-large", max: MAX_RESEND_BATCH });
  await startBatch({
    kind: "resend",
    batchId: input.batchId,
    tenantId: input.tenantId,
    orderNos: ids.map((r) => r.id),
    reason: input.reason,
    actor: input.actor,
    detail: { since: input.since.toISOString() },
  });
}

function resendOutcome(result: ResendResult["result"] | "not-found"): { status: ItemStatus; detail: ItemDetail } {
  switch (result) {
    case "resent":
    case "duplicate": // this batch's key resent it already (a runner that stopped before writing the item)
      return { status: "applied", detail: { resend: result } };
    case "on-its-way":
      return { status: "nothing-to-do", detail: { resend: result } };
    case "not-a-webhook":
    case "not-found":
      return { status: "refused", detail: { resend: result } };
  }
}

/** The batch's next chunk: each message through the single resend (resend.ts). */
export async function runResendChunk(input: { batchId: string; actor: string; limit?: number }): Promise<number> {
  return runChunk({
    ...input,
    kind: "resend",
    handle: async (item) => {
      try {
        const sent = await resendMessage({
          tenantId: item.tenantId,
          messageId: Number(item.orderNo),
          actor: input.actor,
          reason: `bulk resend ${input.batchId}: ${item.reason}`,
          requestKey: `bulk:${input.batchId}:${item.orderNo}`,
        });
        return resendOutcome(sent.result);
      } catch (error) {
        if (error instanceof AppError && error.code === "not-found") return resendOutcome("not-found");
        // Left failed: starting the batch again retries it.
        return { status: "failed", detail: {} };
      }
    },
  });
}
