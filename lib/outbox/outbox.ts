import "server-only";
import { z } from "zod";
import { one, type Queryable } from "@/lib/db/sql";

// A message for the relay (lib/jobs/outbox-relay.ts), written in the caller's transaction so it
// exists exactly when what it tells of was committed. transit's and grant()'s own messages are part
// of their one-statement writes; everything else enqueues here.

const messageRow = z.object({ id: z.number() });

/** Enqueues one outbox message in `db` (the caller's transaction); returns its id. */
export async function enqueueMessage(db: Queryable, message: { tenantId: string; orderId: number | null; topic: string; payload: unknown }): Promise<number> {
  const row = await one(
    db,
    messageRow,
    `INSERT INTO outbox_messages (tenant_id, order_id, topic, payload) VALUES ($1, $2, $3, $4) RETURNING id::int AS id`,
    [message.tenantId, message.orderId, message.topic, JSON.stringify(message.payload)],
  );
  return row.id;
}
