import { randomBytes } from "node:crypto";
import type pg from "pg";
import { execute } from "@/lib/db/sql";
import type { OrderState } from "@/lib/orders/machine";

export interface TenantSpec {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly unpaidTimeoutSeconds: number;
  readonly maxDwellSeconds: Readonly<Partial<Record<OrderState, number>>>;
  /** Refunds above this amount (minor units) need a manager's approval. */
  readonly refundApprovalAmount: number;
  readonly deliveryMode: "external" | "managed";
  readonly grantEndpointUrl?: string | null;
  /** Where take-back calls go (rule `revoke`, lib/jobs/take-back-calls.ts). */
  readonly revokeEndpointUrl?: string | null;
  readonly webhookUrl?: string | null;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The two demo products (seed 000): 消消 (xiaoxiao), a casual game with small frequent purchases
 * (avg ¥14.5), and 方舟 (fangzhou), a mid-core game with a ¥128 main tier (avg ¥182).
 */
export const DEMO_TENANTS: readonly TenantSpec[] = [
  {
    id: "xiaoxiao",
    name: "消消 Xiaoxiao",
    currency: "CNY",
    unpaidTimeoutSeconds: 30 * MINUTE,
    maxDwellSeconds: { created: 30 * MINUTE, paid: 5 * MINUTE, delivering: 10 * MINUTE, refunding: 3 * DAY },
    refundApprovalAmount: 100_00,
    deliveryMode: "external",
  },
  {
    id: "fangzhou",
    name: "方舟 Fangzhou",
    currency: "CNY",
    unpaidTimeoutSeconds: 15 * MINUTE,
    maxDwellSeconds: { created: 15 * MINUTE, paid: 2 * MINUTE, delivering: 5 * MINUTE, refunding: 2 * DAY },
    refundApprovalAmount: 500_00,
    deliveryMode: "managed",
    grantEndpointUrl: "http://127.0.0.1:4010/grants",
    revokeEndpointUrl: "http://127.0.0.1:4010/revoke",
  },
];

/** Creates the tenant and its settings; an existing tenant is left as it is. */
export async function ensureTenant(db: pg.Pool | pg.PoolClient, spec: TenantSpec): Promise<void> {
  await execute(
    db,
    `WITH t AS (
       INSERT INTO tenants (id, name, currency) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id
     )
     INSERT INTO tenant_settings (tenant_id, unpaid_timeout_seconds, max_dwell_seconds, refund_approval_amount,
       delivery_mode, grant_endpoint_url, webhook_url, signing_secret, revoke_endpoint_url)
     SELECT id, $4, $5, $6, $7, $8, $9, $10, $11 FROM t`,
    [
      spec.id,
      spec.name,
      spec.currency,
      spec.unpaidTimeoutSeconds,
      JSON.stringify(spec.maxDwellSeconds),
      spec.refundApprovalAmount,
      spec.deliveryMode,
      spec.grantEndpointUrl ?? null,
      spec.webhookUrl ?? null,
      randomBytes(32).toString("base64url"),
      spec.revokeEndpointUrl ?? null,
    ],
  );
}

/** A small tenant for tests: one call, sensible thresholds, overridable. */
export function tenantSpec(id: string, overrides: Partial<TenantSpec> = {}): TenantSpec {
  return {
    id,
    name: id,
    currency: "CNY",
    unpaidTimeoutSeconds: 30 * MINUTE,
    maxDwellSeconds: { created: 30 * MINUTE, paid: 5 * MINUTE, delivering: 10 * MINUTE, refunding: 3 * DAY },
    refundApprovalAmount: 100_00,
    deliveryMode: "external",
    ...overrides,
  };
}
