// 6. Outbox relay: two workers (separate processes, relayOutbox() with the worker's defaults)
// draining pending outbox messages to a local webhook receiver that answers 200. Messages per
// second from "go" to the last delivery; nothing lost and nothing sent twice, by message id.
import { getPool } from "@/lib/db/pool";
import { MESSAGE_ID_HEADER } from "@/lib/jobs/signature";
import { startReceiver } from "@/lib/jobs/test-receiver";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { DEADLINE_ENV, forkWorker } from "./lib/child";
import { withFreshDatabase } from "./lib/db";
import { isMain, runAlone, type Bench } from "./lib/runner";
import { count, perSecond } from "./lib/stats";
import type { RelayRun } from "./workers/outbox-relay";

const WORKERS = 2;
const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const TARGET_RATE = 1_000;
/** The workers stop claiming after this; the rate is then over what was delivered. */
const DEADLINE_S = 240;

export const outboxRelayBench: Bench = {
  name: "outbox-relay",
  title: "6. Outbox relay: 2 workers to a local webhook receiver",
  async run({ args, log }) {
    const messages = args.quick ? 10_000 : 50_000;
    return withFreshDatabase("outbox", async (db) => {
      const receiver = await startReceiver(() => 200);
      try {
        const pool = getPool();
        for (const [id, path] of [["hooks-a", "/a"], ["hooks-b", "/b"]] as const) {
          await ensureTenant(pool, tenantSpec(id, { webhookUrl: `${receiver.url}${path}` }));
        }
        // What transit() writes: one message per transition, a few hundred bytes of JSON.
        await pool.query(
          `INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
           SELECT CASE WHEN i % 2 = 0 THEN 'hooks-a' ELSE 'hooks-b' END, NULL, 'order.transitioned',
                  jsonb_build_object('tenantId', CASE WHEN i % 2 = 0 THEN 'hooks-a' ELSE 'hooks-b' END, 'orderNo', 'XX2026120200' || lpad(i::text, 8, '0'),
                    'event', 'pay', 'from', 'created', 'to', 'paid', 'version', 1, 'bizKey', 'alipay-20261202' || lpad(i::text, 12, '0'),
                    'source', 'callback', 'at', now())
           FROM generate_series(1, $1::int) AS i`,
          [messages],
        );
        await pool.query(`VACUUM ANALYZE outbox_messages`);
        // The setup's writes are flushed now, not by a checkpoint in the middle of the measurement.
        await pool.query(`CHECKPOINT`);
        const { rows: ids } = await pool.query<{ id: number }>(`SELECT id FROM outbox_messages ORDER BY id`);
        log(`${count(messages)} pending messages`);

        const workers = await Promise.all(Array.from({ length: WORKERS }, () => forkWorker<RelayRun>("outbox-relay.ts", { DATABASE_URL: db.url, [DEADLINE_ENV]: String(DEADLINE_S * 1000) })));
        const t0 = performance.now();
        workers.forEach((w) => w.go());
        const runs = await Promise.all(workers.map((w) => w.done));
        const seconds = (performance.now() - t0) / 1000;

        const stoppedEarly = runs.some((r) => r.stoppedEarly);
        const received = receiver.requests.map((r) => Number(r.headers[MESSAGE_ID_HEADER]));
        const distinct = new Set(received);
        const { rows: deliveredRows } = await pool.query<{ id: number }>(`SELECT id FROM outbox_messages WHERE status = 'delivered' ORDER BY id`);
        // Lost: marked delivered but never received. Stopped early, the rest is still pending (not lost).
        const missing = deliveredRows.filter((r) => !distinct.has(r.id)).length + (stoppedEarly ? 0 : ids.length - deliveredRows.length);
        const duplicates = received.length - distinct.size;
        const { rows } = await pool.query<{ status: string; attempts: number; n: number }>(
          `SELECT status, attempts, count(*)::int AS n FROM outbox_messages GROUP BY 1, 2 ORDER BY 1, 2`,
        );
        const settled = rows.filter((r) => r.status !== "pending");
        const allDelivered =
          settled.length === 1 && settled[0]!.status === "delivered" && settled[0]!.attempts === 1 && settled[0]!.n === distinct.size;
        const rate = deliveredRows.length / seconds;
        log(`${perSecond(rate)}; ${received.length} received, ${missing} missing, ${duplicates} duplicates`);
        return {
          metrics: [
            { name: `messages per second (${WORKERS} workers)`, value: perSecond(rate), target: `≥ ${count(TARGET_RATE)}/s`, met: rate >= TARGET_RATE },
            {
              name: "delivered exactly once (by message id)",
              value: `${count(distinct.size)} of ${count(stoppedEarly ? deliveredRows.length : messages)}; ${missing} missing, ${duplicates} twice`,
              target: "all, once",
              met: missing === 0 && duplicates === 0 && allDelivered,
            },
          ],
          notes: [
            `${count(messages)} pending messages for two tenants whose webhook is a local receiver (lib/jobs/test-receiver.ts, answers 200); ${WORKERS} worker processes, each calling relayOutbox() (batches of 100 claimed with FOR UPDATE SKIP LOCKED and a lease, 16 signed POSTs in flight, one settle statement per batch) until a batch comes back empty; ${seconds.toFixed(1)} s from go to the last settle.${stoppedEarly ? ` **Stopped at the ${DEADLINE_S} s deadline with ${count(ids.length - deliveredRows.length)} still pending**: the rate is over what was delivered, and "nothing lost" over the delivered ones.` : ""}`,
            `Per worker: ${runs
              .map(
                (r, i) =>
                  `#${i + 1} ${count(r.delivered)} delivered in ${r.batches} batches (${r.retrying} retrying, ${r.dead} dead); of its ${(r.ms / 1000).toFixed(1)} s, ${pct(r.claimMs, r.ms)} in the claim statement, ${pct(r.settleMs, r.ms)} in the settle statement, the rest signing and POSTing`,
              )
              .join("; ")}.`,
            `Database afterwards: ${rows.map((r) => `${count(r.n)} ${r.status} after ${r.attempts} attempt(s)`).join(", ")}.`,
          ],
        };
      } finally {
        await receiver.close();
      }
    });
  },
};

if (isMain(import.meta.url)) await runAlone(outboxRelayBench);
