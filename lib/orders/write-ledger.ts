import "server-only";
import { execute, type Queryable } from "@/lib/db/sql";
import type { LedgerEntry } from "./decide";
import type { Source } from "./machine";
import type { OrderSnapshot } from "./types";

/** One ledger row to write: the move, the order it belongs to, and who moved it, from where, why. */
export interface LedgerWrite extends LedgerEntry {
  readonly order: Pick<OrderSnapshot, "id" | "tenantId" | "playerId">;
  readonly actor: string;
  readonly source: Source;
  readonly reason: string | null;
}

/**
 * The one place goods are taken back or given back: each move is a grants row (negative: taken;
 * positive `reinstate:` rows: given back) and, beside it, the take_backs row that says which rule
 * applied and where its call to the game stands — `pending` when the worker owes the tenant's
 * endpoint a call (rule revoke), `recorded` when there is nothing to call (a debt, a write-off). One
 * statement, in the caller's transaction, under the order's row lock; the unique (tenant, order,
 * sku, grant_id) keys make a replay fail rather than take twice.
 */
export async function writeLedger(db: Queryable, writes: readonly LedgerWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await execute(
    db,
    `WITH m AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS m(tenant_id, order_id, player_id, grant_id, sku, kind, quantity, rule, actor, source, reason)
     ), g AS (
       INSERT INTO grants (tenant_id, order_id, sku, grant_id, quantity, source, actor, reason)
       SELECT tenant_id, order_id, sku, grant_id, quantity, source, actor, reason FROM m
     )
     INSERT INTO take_backs (tenant_id, order_id, player_id, sku, kind, grant_id, units, rule, status, next_attempt_at)
     SELECT tenant_id, order_id, player_id, sku, kind, grant_id, quantity, rule,
            CASE WHEN rule = 'revoke' THEN 'pending' ELSE 'recorded' END, CASE WHEN rule = 'revoke' THEN now() END
     FROM m`,
    [
      writes.map((w) => w.order.tenantId),
      writes.map((w) => w.order.id),
      writes.map((w) => w.order.playerId),
      writes.map((w) => w.grantId),
      writes.map((w) => w.sku),
      writes.map((w) => w.kind),
      writes.map((w) => w.quantity),
      writes.map((w) => w.rule),
      writes.map((w) => w.actor),
      writes.map((w) => w.source),
      writes.map((w) => `${w.rule}: ${w.reason ?? (w.quantity < 0 ? "refund confirmed" : "refund reversed")}`),
    ],
  );
}
