import "server-only";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";
import type { ExceptionKind } from "./types";

export interface ExceptionInput {
  readonly tenantId: string;
  readonly orderId: number | null;
  readonly kind: ExceptionKind;
  readonly event?: string;
  readonly bizKey?: string;
  readonly amount?: number;
  readonly actor: string;
  readonly detail: Record<string, unknown>;
}

/**
 * Files an exception for ops in its own transaction (never inside the one that was refused, or it
 * would roll back with it). The same refused fact retried files once.
 */
export async function recordException(input: ExceptionInput, db: pg.Pool | pg.PoolClient = getPool()): Promise<void> {
  await db.query(
    `INSERT INTO order_exceptions (tenant_id, order_id, kind, event, biz_key, amount, actor, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (tenant_id, order_id, kind, biz_key) DO NOTHING`,
    [
      input.tenantId,
      input.orderId,
      input.kind,
      input.event ?? null,
      input.bizKey ?? "",
      input.amount ?? null,
      input.actor,
      JSON.stringify(input.detail),
    ],
  );
}
