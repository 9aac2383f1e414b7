import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import { execute, maybeOne } from "@/lib/db/sql";
import { transaction, type PrismaTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { outboxDelivery, resendRefusal, type OutboxDelivery } from "@/lib/outbox/delivery-status";

// A person sends an outbox message to its tenant's webhook again (issue 27, item 3): "we never got
// it", or "we lost it on our side". It is the same message — same id, so the same
// x-orderops-message-id header, and a receiver that already has it deduplicates — made pending
// again for the relay, rather than a POST from the web process:
// - the relay is the one place that signs, sends, retries with backoff, logs the attempt and fences
//   a stale sender with its lease; a second sender would have to repeat all of it;
// - a web request does not wait on a tenant's slow endpoint, and a crash after the click cannot
//   lose the send (the pending row is the promise, committed with the audit fact);
// - its attempts start again from 0: a resend gets the full retry schedule, as a new message would
//   (the attempts log keeps every earlier try; `attempts` counts this delivery's).

export interface ResendInput {
  readonly tenantId: string;
  readonly messageId: number;
  readonly actor: string;
  readonly reason: string;
  /** Made once per form: the same key again (a double click, a retry, another web process) is one resend. */
  readonly requestKey: string;
}

export type ResendResult =
  | { readonly result: "resent"; readonly messageId: number; readonly was: OutboxDelivery }
  /** This request key already resent it. */
  | { readonly result: "duplicate"; readonly messageId: number }
  /** Still queued or retrying: it is on its way already (another person's resend, or the relay's own retries). */
  | { readonly result: "on-its-way"; readonly messageId: number; readonly delivery: OutboxDelivery }
  /** A refund review's answer goes to a store's API, answered from its review page, not from here. */
  | { readonly result: "not-a-webhook"; readonly messageId: number };

const lockedRow = z.object({ topic: z.string(), orderId: z.number().nullable(), status: z.string(), attempts: z.number(), lastError: z.string().nullable() });
const earlierRow = z.object({ messageId: z.number() });

/**
 * Resends in one transaction: the message row locked first, so two resends of one message (two web
 * processes, two people) run one after the other; the second sees the first's request key (same
 * click: `duplicate`) or the message pending again (another click: `on-its-way`). The unique
 * (tenant_id, request_key) index is the backstop.
 */
export async function resendMessage(input: ResendInput): Promise<ResendResult> {
  return transaction(
    async (tx: PrismaTransaction) => {
      const message = await maybeOne(
        tx.client,
        lockedRow,
        `SELECT topic, order_id::int AS "orderId", status, attempts, last_error AS "lastError" FROM outbox_messages WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
        [input.tenantId, input.messageId],
      );
      if (!message) throw new AppError("not-found");
      const earlier = await maybeOne(tx.client, earlierRow, `SELECT message_id::int AS "messageId" FROM outbox_resends WHERE tenant_id = $1 AND request_key = $2`, [
        input.tenantId,
        input.requestKey,
      ]);
      if (earlier) return { result: "duplicate", messageId: earlier.messageId };
      const was = outboxDelivery(message);
      const refused = resendRefusal(message.topic, was);
      if (refused === "not-a-webhook") return { result: refused, messageId: input.messageId };
      if (refused === "on-its-way") return { result: refused, messageId: input.messageId, delivery: was };

      await execute(tx.client, `INSERT INTO outbox_resends (tenant_id, message_id, request_key, actor, reason) VALUES ($1, $2, $3, $4, $5)`, [
        input.tenantId,
        input.messageId,
        input.requestKey,
        input.actor,
        input.reason,
      ]);
      await execute(
        tx.client,
        `UPDATE outbox_messages SET status = 'pending', attempts = 0, last_error = NULL, delivered_at = NULL, next_attempt_at = now()
         WHERE tenant_id = $1 AND id = $2 AND status IN ('delivered', 'dead')`,
        [input.tenantId, input.messageId],
      );
      await audit(
        {
          actor: input.actor,
          action: "webhook.resent",
          tenantId: input.tenantId,
          orderId: message.orderId,
          target: `outbox:${input.messageId}`,
          detail: { messageId: input.messageId, topic: message.topic, was, attemptsBefore: message.attempts, reason: input.reason },
        },
        tx.prisma,
      );
      return { result: "resent", messageId: input.messageId, was };
    },
    // The twin that lost the unique index's race runs again, and finds the winner's key.
    { prisma: true, retry: { label: "webhook resend", uniqueViolations: true } },
  );
}
