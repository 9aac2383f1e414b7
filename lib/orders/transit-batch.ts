import "server-only";
import type pg from "pg";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { ConcurrentChange } from "@/lib/db/retry";
import { rows, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { decide, type Effects, type ExceptionDraft } from "./decide";
import type { OrderEvent } from "./machine";
import { recordException } from "./record-exception";
import { ORDER_COLUMNS, orderRow, TRANSITION_COLUMNS, transitionRow } from "./rows";
import { refused, type TransitInput, type TransitResult } from "./transit";
import type { OrderSnapshot, TransitionRecord } from "./types";
import { writeTransitions } from "./write-transitions";

/**
 * Events whose decision needs nothing beyond the order row and the duplicate check. The others
 * read the order's lines or its refund history under the lock; they go through transit() alone.
 */
export type BatchEvent = Extract<OrderEvent, "pay" | "begin-delivery" | "request-refund" | "close">;

export type BatchInput = TransitInput & { readonly event: BatchEvent };

export interface BatchResult {
  /** Per order id, exactly what transit() would have answered for that order. */
  readonly results: ReadonlyMap<number, TransitResult>;
  /**
   * Orders whose row another transaction held (a payment landing right now, say): untouched, for
   * the caller to try again later. Orders that do not exist are here too.
   */
  readonly busy: readonly number[];
}

/**
 * transit() for many orders in one transaction: the same steps in the same order, each taken for
 * the whole batch in one statement, so a batch costs five round trips instead of five per order.
 *
 * 1. Lock the order rows, in id order, `SKIP LOCKED`: a row another transaction holds is left alone
 *    (reported busy), so a batch never waits behind a payment and never deadlocks with another batch.
 * 2. Read every order's duplicate transition after the lock.
 * 3. Decide each order with decide(), as transit() does.
 * 4. Write the effects with transit's own write statement; any compare-and-set miss rolls the whole
 *    batch back and retries it.
 * Exceptions (money on a closed order, a short payment) are filed after the commit, as transit does.
 */
export async function transitBatch(inputs: readonly BatchInput[], pool: pg.Pool = getPool()): Promise<BatchResult> {
  const byId = new Map(inputs.map((input) => [input.orderId, input]));
  if (byId.size !== inputs.length) throw new Error("transitBatch: an order appears twice in one batch");
  if (inputs.length === 0) return { results: new Map(), busy: [] };

  const { results, exceptions, lockedIds } = await transaction(
    async ({ client }) => {
      const locked = await rows(client, orderRow, `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE SKIP LOCKED`, [
        [...byId.keys()],
      ]);
      const duplicates = await readDuplicates(client, locked, byId);

      const results = new Map<number, TransitResult>();
      const exceptions: ExceptionDraft[] = [];
      const writes: Effects[] = [];
      for (const order of locked) {
        const decision = decide(order, byId.get(order.id)!, { duplicate: duplicates.get(order.id) ?? null, refundFrom: null, lines: null });
        if (decision.outcome === "apply") {
          writes.push(decision.effects);
          continue;
        }
        const { result, exception } = refused(order, decision);
        results.set(order.id, result);
        if (exception) exceptions.push(exception);
      }

      const written = await writeTransitions(client, writes);
      if (written.length !== writes.length) throw new ConcurrentChange(`transit batch of ${inputs.length}`);
      for (const { order, transition } of written) results.set(order.id, { result: "applied", order, transition });
      return { results, exceptions, lockedIds: new Set(locked.map((o) => o.id)) };
    },
    { pool, retry: { label: `transit batch of ${inputs.length}`, uniqueViolations: true } },
  );
  for (const exception of exceptions) await recordException(exception, pool);
  return { results, busy: [...byId.keys()].filter((id) => !lockedIds.has(id)) };
}

/**
 * Each (tenant, order, event, bizKey)'s transition, probed through the unique key by (tenant, order).
 * OFFSET 0 keeps event and bizKey out of the index choice: job events share one bizKey ('timeout'),
 * and with statistics that lag the table the planner otherwise read (tenant, event, …) indexes and
 * every close of the tenant per order (see the test).
 */
export const DUPLICATES_SQL = `SELECT x.order_id AS "orderId", t.*
  FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS x(tenant_id, order_id, event, biz_key)
  CROSS JOIN LATERAL (
    SELECT ${TRANSITION_COLUMNS} FROM order_transitions
    WHERE tenant_id = x.tenant_id AND order_id = x.order_id OFFSET 0
  ) t
  WHERE t.event = x.event AND t."bizKey" = x.biz_key`;

const duplicateRow = z.intersection(transitionRow, z.object({ orderId: z.number() }));

/** Each locked order's transition with the same (event, bizKey), if there is one. */
async function readDuplicates(
  db: Queryable,
  locked: readonly OrderSnapshot[],
  byId: ReadonlyMap<number, BatchInput>,
): Promise<Map<number, TransitionRecord>> {
  if (locked.length === 0) return new Map();
  const found = await rows(db, duplicateRow, DUPLICATES_SQL, [
    locked.map((o) => o.tenantId),
    locked.map((o) => o.id),
    locked.map((o) => byId.get(o.id)!.event),
    locked.map((o) => byId.get(o.id)!.bizKey),
  ]);
  return new Map(found.map(({ orderId, ...transition }) => [orderId, transition]));
}
