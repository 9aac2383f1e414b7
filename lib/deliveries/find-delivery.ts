import "server-only";
import { z } from "zod";
import { maybeOne, rows, type Queryable } from "@/lib/db/sql";
import { deliveryListRow, messageRowFields, type DeliveryListRow } from "./list-deliveries";

// One outbox message as the deliveries page shows it: the message, every attempt the relay logged
// (outbox_attempts), and every resend a person asked for (outbox_resends).

export interface DeliveryAttempt {
  readonly id: number;
  readonly url: string;
  readonly at: Date;
  /** The HTTP status, or null when no answer came (`error` says why). */
  readonly status: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  /** The first 1 KB of the answer's body. */
  readonly responseBody: string;
  /** The headers sent, signature included; never the secret. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface DeliveryResend {
  readonly at: Date;
  readonly actor: string;
  readonly reason: string;
}

/** A row of the list, with what only the message's own page shows. */
export interface DeliveryRecord extends DeliveryListRow {
  /** The exact body the relay signs and sends (JSON.stringify of the stored payload, as the relay makes it). */
  readonly body: string;
  readonly log: readonly DeliveryAttempt[];
  readonly resends: readonly DeliveryResend[];
}

const messageRow = messageRowFields.extend({ payload: z.unknown() });

const attemptRow = z.object({
  id: z.number(),
  url: z.string(),
  at: z.coerce.date(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number(),
  responseBody: z.string(),
  headers: z.record(z.string(), z.string()),
});

const resendRow = z.object({ at: z.coerce.date(), actor: z.string(), reason: z.string() });

/** At most this many attempts are shown, the latest: a message retried for hours has 15, a resent one a few more. */
export const SHOWN_ATTEMPTS = 100;

/** The message `id` of `tenantId`, or null. Read in the caller's snapshot. */
export async function findDelivery(db: Queryable, tenantId: string, id: number): Promise<DeliveryRecord | null> {
  const message = await maybeOne(
    db,
    messageRow,
    `SELECT m.id::int AS id, m.tenant_id AS "tenantId", m.topic, o.order_no AS "orderNo", m.status, m.attempts,
            m.last_error AS "lastError", m.created_at AS "createdAt", m.next_attempt_at AS "nextAttemptAt",
            m.delivered_at AS "deliveredAt", m.payload
     FROM outbox_messages m LEFT JOIN orders o ON o.id = m.order_id
     WHERE m.tenant_id = $1 AND m.id = $2`,
    [tenantId, id],
  );
  if (!message) return null;
  const [log, resends] = [
    await rows(
      db,
      attemptRow,
      `SELECT * FROM (
         SELECT id::int AS id, url, attempted_at AS at, status, error, latency_ms AS "latencyMs",
                response_body AS "responseBody", request_headers AS headers
         FROM outbox_attempts WHERE tenant_id = $1 AND message_id = $2 ORDER BY id DESC LIMIT $3
       ) a ORDER BY id`,
      [tenantId, id, SHOWN_ATTEMPTS],
    ),
    await rows(db, resendRow, `SELECT created_at AS at, actor, reason FROM outbox_resends WHERE tenant_id = $1 AND message_id = $2 ORDER BY id`, [tenantId, id]),
  ];
  return {
    ...deliveryListRow(message),
    // The relay sends JSON.stringify of the payload as pg decodes it: the same call, the same bytes.
    body: JSON.stringify(message.payload),
    log,
    resends,
  };
}
