import "server-only";
import { getPool } from "@/lib/db/pool";
import { execute, type Queryable } from "@/lib/db/sql";
import type { ExceptionDraft } from "./decide";

/**
 * Files an exception for ops in its own transaction (never inside the one that was refused, or it
 * would roll back with it). The same refused fact retried files once.
 */
export async function recordException(input: ExceptionDraft, db: Queryable = getPool()): Promise<void> {
  await execute(
    db,
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, event, biz_key, amount, actor, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (tenant_id, order_id, kind, biz_key) DO NOTHING`,
    [input.tenantId, input.orderId, input.kind, input.event ?? null, input.bizKey ?? "", input.amount ?? null, input.actor, JSON.stringify(input.detail)],
  );
}
