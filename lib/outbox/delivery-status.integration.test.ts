import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { rows } from "@/lib/db/sql";
import { useFreshDatabase } from "@/lib/test/database";
import { DELIVERY_CONDITION, OUTBOX_DELIVERIES, outboxDelivery } from "./delivery-status";
import { NO_WEBHOOK } from "./no-webhook";

// The status filter's SQL and the status the page shows are one rule: every row matches exactly the
// condition of the status outboxDelivery() gives it, over every kind of row the relay leaves.

useFreshDatabase();

afterAll(async () => {
  await getPool().query(`UPDATE outbox_messages SET status = 'dead' WHERE tenant_id = 'status-check' AND status = 'pending'`);
});

describe("DELIVERY_CONDITION", () => {
  it("agrees with outboxDelivery on every row", async () => {
    await getPool().query(
      `INSERT INTO outbox_messages (tenant_id, topic, payload, status, attempts, last_error, next_attempt_at)
       SELECT 'status-check', 't', '{}', s, a, e, now() + interval '1 day'
       FROM unnest(ARRAY['pending','delivered','dead']) s, unnest(ARRAY[0, 1, 15]) a, unnest(ARRAY[NULL, $1, 'HTTP 503']) e`,
      [NO_WEBHOOK],
    );
    const all = await rows(
      getPool(),
      z.object({ id: z.number(), status: z.string(), attempts: z.number(), lastError: z.string().nullable(), matches: z.array(z.string()) }),
      `SELECT m.id::int AS id, m.status, m.attempts, m.last_error AS "lastError",
              ARRAY_REMOVE(ARRAY[${OUTBOX_DELIVERIES.map((d) => `CASE WHEN ${DELIVERY_CONDITION[d](() => "$1")} THEN '${d}' END`).join(", ")}], NULL) AS matches
       FROM outbox_messages m WHERE m.tenant_id = 'status-check'`,
      [NO_WEBHOOK],
    );
    expect(all).toHaveLength(27);
    for (const row of all) expect(row.matches, JSON.stringify(row)).toEqual([outboxDelivery(row)]);
    expect(new Set(all.map((r) => outboxDelivery(r)))).toEqual(new Set(OUTBOX_DELIVERIES));
  });
});
