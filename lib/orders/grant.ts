import "server-only";
import type pg from "pg";
import { getPool, isRetryable, isUniqueViolation } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { decideGrant, type GrantOutcome } from "./grants";
import { isOrderState, type Source } from "./machine";
import { ORDER_COLUMNS, type OrderSnapshot } from "./types";

export interface GrantInput {
  readonly orderId: number;
  readonly sku: string;
  readonly quantity: number;
  /** Stable per delivery attempt: the same grantId again is a duplicate, never a second grant. */
  readonly grantId: string;
  readonly actor: string;
  readonly source: Source;
  readonly reason?: string | null;
}

export interface GrantRecord {
  readonly id: number;
  readonly sku: string;
  readonly grantId: string;
  readonly quantity: number;
  readonly source: string;
  readonly actor: string;
  readonly reason: string | null;
  readonly at: Date;
}

export type GrantResult =
  | { readonly result: "applied" | "duplicate"; readonly order: OrderSnapshot; readonly grant: GrantRecord }
  | {
      readonly result: Exclude<GrantOutcome, "applied" | "duplicate">;
      readonly order: OrderSnapshot;
      /** The line's numbers, so a refusal can say "10 ordered, 9 granted, asked for 2". */
      readonly line: { readonly quantity: number; readonly granted: number } | null;
    }
  | { readonly result: "not-found" };

/** Refund reversals are written as `refund:<refund id>`: a client grant may not take such an id. */
export const REVERSAL_GRANT_PREFIX = "refund:";

const GRANT_COLUMNS = `id, sku, grant_id AS "grantId", quantity, source, actor, reason, created_at AS "at"`;
const MAX_ATTEMPTS = 3;

/**
 * Records one grant on one order line. Under the order's row lock, so concurrent grants on the
 * same order queue up and their sum can never pass the line quantity. BEGIN, lock, facts, insert,
 * COMMIT: the unique (tenant, order, sku, grant_id) index is the backstop for replays.
 */
export async function grant(input: GrantInput, pool: pg.Pool = getPool()): Promise<GrantResult> {
  if (input.grantId.startsWith(REVERSAL_GRANT_PREFIX)) {
    throw new AppError("invalid-input", `grantIds starting with "${REVERSAL_GRANT_PREFIX}" are reserved for refund reversals`);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptGrant(input, pool);
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && (isRetryable(error) || isUniqueViolation(error))) continue;
      throw error;
    }
  }
}

interface LineFactsRow {
  readonly line: { quantity: number; granted: number } | null;
  readonly existing: (Omit<GrantRecord, "at"> & { at: string }) | null;
}

async function attemptGrant(input: GrantInput, pool: pg.Pool): Promise<GrantResult> {
  const client = await pool.connect();
  let committed = false;
  try {
    await client.query("BEGIN");
    const locked = await client.query<OrderSnapshot>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 FOR UPDATE`, [
      input.orderId,
    ]);
    const order = locked.rows[0];
    if (!order) return { result: "not-found" };
    if (!isOrderState(order.state)) throw new Error(`order ${order.id} has unknown state ${order.state}`);

    const { rows } = await client.query<LineFactsRow>(
      `SELECT
         (SELECT json_build_object('quantity', l.quantity, 'granted',
             (SELECT COALESCE(SUM(g.quantity), 0) FROM grants g
              WHERE g.tenant_id = l.tenant_id AND g.order_id = l.order_id AND g.sku = l.sku AND g.quantity > 0))
          FROM order_lines l WHERE l.tenant_id = $1 AND l.order_id = $2 AND l.sku = $3) AS line,
         (SELECT row_to_json(x) FROM (SELECT ${GRANT_COLUMNS} FROM grants
            WHERE tenant_id = $1 AND order_id = $2 AND sku = $3 AND grant_id = $4) x) AS existing`,
      [order.tenantId, order.id, input.sku, input.grantId],
    );
    const facts = rows[0]!;
    const outcome = decideGrant({
      state: order.state,
      ...(facts.line ? { line: facts.line } : {}),
      alreadyGranted: facts.existing !== null,
      quantity: input.quantity,
    });
    switch (outcome) {
      case "duplicate":
        return { result: "duplicate", order, grant: { ...facts.existing!, at: new Date(facts.existing!.at) } };
      case "applied":
        break;
      default:
        return { result: outcome, order, line: facts.line };
    }

    const inserted = await client.query<Omit<GrantRecord, "at"> & { at: Date }>(
      `WITH g AS (
         INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING ${GRANT_COLUMNS}
       ), m AS (
         INSERT INTO outbox_messages (tenant_id, order_id, topic, payload)
         SELECT $1, $2, 'order.granted', jsonb_build_object(
           'tenantId', $1::text, 'orderNo', $9::text, 'sku', g.sku, 'grantId', g."grantId", 'quantity', g.quantity,
           'source', g.source, 'at', g."at")
         FROM g
       )
       SELECT * FROM g`,
      [order.tenantId, order.id, input.sku, input.grantId, input.quantity, input.source, input.actor, input.reason ?? null, order.orderNo],
    );
    await client.query("COMMIT");
    committed = true;
    return { result: "applied", order, grant: inserted.rows[0]! };
  } finally {
    if (!committed) await client.query("ROLLBACK").catch(() => undefined);
    client.release();
  }
}
