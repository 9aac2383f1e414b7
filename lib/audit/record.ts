import "server-only";
import type pg from "pg";
import { getPool } from "@/lib/db/pool";

/** Staff and machine actions that are not order transitions (those live in order_transitions). */
export type AuditAction =
  | "sign-in.succeeded"
  | "sign-in.failed"
  | "sign-in.locked"
  | "access.denied"
  | "user.created"
  | "user.updated"
  | "user.disabled"
  | "user.enabled"
  | "user.password-reset"
  | "apikey.created"
  | "apikey.revoked"
  | "settings.updated"
  | "audit.exported";

export interface AuditInput {
  readonly actor: string;
  readonly action: AuditAction;
  readonly target?: string | null;
  readonly tenantId?: string | null;
  readonly ip?: string | null;
  readonly detail?: Record<string, unknown>;
}

export async function audit(input: AuditInput, db: pg.Pool | pg.PoolClient = getPool()): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (tenant_id, actor, action, target, ip, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
    [input.tenantId ?? null, input.actor, input.action, input.target ?? null, input.ip ?? null, JSON.stringify(input.detail ?? {})],
  );
}
