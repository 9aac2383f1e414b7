// Outbox messages for the deliveries page's benchmark (issue 27): seedDemo writes none (the relay
// would replay the history as webhooks), so the large database gets them here, generated inside
// PostgreSQL like the orders: one per order in turn, newest last, with the mix a live outbox has —
// most delivered, some dead, some retrying, some never sent for want of a webhook.
import type pg from "pg";
import { NO_WEBHOOK } from "@/lib/outbox/no-webhook";

const CHUNK = 200_000;

/** Adds messages until outbox_messages holds `target`; returns how many it added. */
export async function seedOutboxMessages(pool: pg.Pool, target: number): Promise<number> {
  const { rows } = await pool.query<{ n: number; lo: string | null; hi: string | null }>(
    `SELECT (SELECT count(*) FROM outbox_messages)::int AS n, (SELECT min(id) FROM orders) AS lo, (SELECT max(id) FROM orders) AS hi`,
  );
  const { n, lo, hi } = rows[0]!;
  if (n >= target || lo === null || hi === null) return 0;
  let added = 0;
  let offset = n;
  while (n + added < target && offset < 2 * target) {
    const size = Math.min(CHUNK, target - n - added);
    const result = await pool.query(
      `INSERT INTO outbox_messages (tenant_id, order_id, topic, payload, status, attempts, last_error, next_attempt_at, created_at, delivered_at)
       SELECT o.tenant_id, o.id,
              CASE WHEN x.i % 10 < 7 THEN 'order.transitioned' WHEN x.i % 10 < 9 THEN 'order.granted' ELSE 'refund.requested' END,
              jsonb_build_object('tenantId', o.tenant_id, 'orderNo', o.order_no, 'version', 1),
              CASE WHEN x.i % 100 < 90 OR x.i % 100 >= 98 THEN 'delivered' WHEN x.i % 100 < 95 THEN 'dead' ELSE 'pending' END,
              CASE WHEN x.i % 100 < 90 THEN 1 WHEN x.i % 100 < 95 THEN 15 WHEN x.i % 100 < 98 THEN 3 ELSE 0 END,
              CASE WHEN x.i % 100 < 90 THEN NULL WHEN x.i % 100 < 98 THEN 'HTTP 503: refused' ELSE $4 END,
              now() + interval '1 day',
              x.at, CASE WHEN x.i % 100 < 90 OR x.i % 100 >= 98 THEN x.at END
       FROM (SELECT i, now() - interval '90 days' + (i::float8 / $3) * interval '90 days' AS at FROM generate_series($1::bigint, $1::bigint + $2 - 1) i) x
       JOIN orders o ON o.id = $5::bigint + (x.i % ($6::bigint - $5::bigint + 1))`,
      [offset, size, target, NO_WEBHOOK, lo, hi],
    );
    offset += size;
    // An order id the seeder skipped adds nothing: the next chunk makes up for it.
    added += result.rowCount ?? 0;
  }
  await pool.query(`VACUUM ANALYZE outbox_messages`);
  return added;
}
